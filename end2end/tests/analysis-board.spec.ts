import { test, expect, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { arrowTo, waitForHydration } from './helpers';

const shots = 'test-results/screenshots';

/** Two English games (GameType 21), as CheckerBoard writes them. */
const ENGLISH = `[Event "Club"]
[White "Blanc"]
[Black "Noir"]
[GameType "21"]
1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 *

[Event "Club"]
[White "Autre"]
[Black "Joueur"]
[GameType "21"]
1. 9-13 22-18 2. 10-14 *
`;

async function open(page: Page) {
  await page.goto('/analyse');
  await waitForHydration(page);
}

test('a PDN pasted in English draughts: its moves browsed on the board, then exported', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await open(page);
  await page.locator('#pdn-texte').fill(ENGLISH);
  await page.getByRole('button', { name: 'Importer' }).click();
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(6);
  await expect(page.locator('.board [data-square]')).toHaveCount(32);
  await expect(page.getByTestId('coup-affiche')).toHaveText('Position de départ');
  await page.getByRole('button', { name: 'Fin' }).click();
  await expect(page.getByTestId('coup-affiche')).toHaveText('Coup 6 sur 6');
  await expect(page.getByTestId('export-pdn')).toHaveValue(/\[GameType "21"\][\s\S]*11-15 23-19/);
  await page.getByRole('button', { name: 'Coup précédent' }).click();
  await expect(page.getByTestId('export-pdn')).not.toHaveValue(/17-13/);
  // The second game of the text, picked from the list.
  await page.locator('#pdn-partie').selectOption({ label: '2. Autre – Joueur, Club (3 coups)' });
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(3);
  await page.screenshot({ path: `${shots}/analysis-board-desktop.png` });
});

test('a PDN file chosen, and a bad one refused with its move, line and column', async ({ page }) => {
  await open(page);
  await page.locator('#pdn-fichier').setInputFiles({
    name: 'parties.pdn',
    mimeType: 'text/plain',
    buffer: Buffer.from(ENGLISH),
  });
  await expect(page.locator('#pdn-texte')).toHaveValue(/Blanc/);
  await page.getByRole('button', { name: 'Importer' }).click();
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(6);

  await page.locator('#pdn-texte').fill('[GameType "21"]\n1. 11-15 23-18\n2. 15-24 *\n');
  await page.getByRole('button', { name: 'Importer' }).click();
  await expect(page.getByRole('alert')).toContainText('coup 3 « 15-24 », ligne 3, colonne 4');
  // The board kept the game it had.
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(6);
});

test('a position set up in FEN, both sides played, the engine asked for its best line', async ({ page }) => {
  await open(page);
  await page.locator('#fen-texte').fill('W:W28,34,46,47,48,49:B1,2,3,4,5,18');
  await page.getByRole('button', { name: 'Charger la position' }).click();
  await expect(page.getByTestId('export-fen')).toHaveValue('W:W28,34,46-49:B1-5,18');
  await page.getByRole('button', { name: 'Évaluer la position' }).click();
  await expect(page.getByTestId('evaluation')).toContainText('Meilleur coup', { timeout: 30_000 });
  await expect(page.locator('.board .sq.hint')).not.toHaveCount(0);
  // White plays 28-23, Black must take two: both played on the board.
  await page.locator('[data-square="28"]').click();
  await page.locator('[data-square="23"]').click();
  await expect(page.getByTestId('statut')).toContainText('Trait aux noirs');
  await page.locator('[data-square="18"]').click();
  await page.locator('[data-square="40"]').click();
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('export-fen')).toHaveValue(/^W:/);
  await page.getByRole('button', { name: 'Évaluer la position' }).click();
  await expect(page.getByTestId('evaluation')).toContainText('avantage aux noirs', { timeout: 30_000 });

  await page.locator('#fen-texte').fill('W:W28,34:B99');
  await page.getByRole('button', { name: 'Charger la position' }).click();
  await expect(page.getByRole('alert')).toContainText('FEN refusée');
});

test('keyboard only: rules chosen, a move entered on the board, the line browsed', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Dames russes' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.board [data-square]')).toHaveCount(32);
  // Tab to the board, then play 22-18 (Russian: White first) with the keys.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.getAttribute('role') === 'gridcell')) break;
  }
  await arrowTo(page, 22, 8);
  await page.keyboard.press('Enter');
  await expect(page.locator('.board [data-square="22"]')).toHaveClass(/selected/);
  await arrowTo(page, 18, 8);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(1);
  // Black's answer typed in notation.
  await page.getByLabel('Jouer un coup en notation').fill('11-15');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(2);
  await page.getByLabel('Jouer un coup en notation').fill('12-17');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('Coup refusé');
  await page.getByRole('button', { name: 'Début' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('coup-affiche')).toHaveText('Position de départ');
});

test('a position set up with the editor on the 8×8 board, then judged', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Dames anglaises' }).click();
  await page.getByRole('button', { name: 'Mettre en place une position' }).click();
  await expect(page.locator('.editor-board [data-square]')).toHaveCount(32);
  await page.getByRole('button', { name: 'Vider le damier' }).click();
  // A tap: white man; three: black man.
  await page.locator('.editor-board [data-square="22"]').click();
  for (let i = 0; i < 3; i++) await page.locator('.editor-board [data-square="18"]').click();
  await page.getByLabel('Les blancs ont le trait').check();
  await page.locator('.editor').screenshot({ path: `${shots}/analysis-board-editor.png` });
  await page.getByRole('button', { name: 'Analyser cette position' }).click();
  await expect(page.getByTestId('export-fen')).toHaveValue('W:W22:B18');
  await page.getByRole('button', { name: 'Évaluer la position' }).click();
  await expect(page.getByTestId('evaluation')).toContainText('22x15', { timeout: 30_000 });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  test('the analysis board on a phone', async ({ page }) => {
    await open(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const board = await page.locator('.board').boundingBox();
    expect(board!.y + board!.height).toBeLessThanOrEqual(844);
    await page.locator('[data-square="32"]').tap();
    await page.locator('[data-square="28"]').tap();
    await expect(page.getByTestId('ligne').locator('li')).toHaveCount(1);
    await page.screenshot({ path: `${shots}/analysis-board-phone.png`, fullPage: true });
  });
});

test('no accessibility violation on the analysis board', async ({ page }) => {
  await open(page);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});

test('a bad address gets a French message and a 400', async ({ page }) => {
  const response = await page.goto('/analyse?regles=english&fen=W:W31-50:B1-20');
  expect(response!.status()).toBe(400);
  await expect(page.getByRole('alert')).toBeVisible();
});
