import { test, expect, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { startTestGame, waitForHydration } from './helpers';

const shots = 'test-results/screenshots';

/** White to move, six men each: 28-23 lets Black take two men (18x40). */
const DROPS_TWO = 'W:W28,34,46,47,48,49:B1,2,3,4,5,18';

/** A free game from DROPS_TWO where White plays 28-23 (the computer takes
 * two men), then resigns; returns its id. */
async function blunderedGame(page: Page): Promise<string> {
  await startTestGame(page, DROPS_TWO);
  await page.goto('/partie-libre');
  await waitForHydration(page);
  await page.locator('[data-square="28"]').click();
  await page.locator('[data-square="23"]').click();
  // The computer's reply: 18x40, two men taken.
  await expect(page.locator('[data-square="40"] [data-piece="bm"]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Abandonner' }).click();
  await expect(page.locator('.status.over')).toBeVisible();
  const id = await page.locator('[data-partie]').getAttribute('data-partie');
  expect(id).toBeTruthy();
  return id!;
}

/** Asks for the analysis on its page and waits for the graph. */
async function analyse(page: Page) {
  await expect(page.getByRole('button', { name: 'Analyser la partie' })).toBeVisible();
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Analyser la partie' }).click();
  await expect(page.getByTestId('graphe')).toBeVisible({ timeout: 60_000 });
}

test('a finished game analysed: graph, a point clicked, the blunder marked, the best move drawn', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const id = await blunderedGame(page);
  // The finished game links to its analysis.
  await page.getByRole('link', { name: 'Analyser la partie' }).click();
  await expect(page).toHaveURL(new RegExp(`/analyse/${id}$`));
  await analyse(page);

  const blunder = page.locator('.analysed-moves .ply-button.blunder');
  await expect(blunder).toHaveCount(1);
  await expect(blunder).toContainText('28-23');
  await expect(blunder).toContainText('??');
  await expect(page.locator('.graph-mark.blunder')).toHaveCount(1);
  await expect(page.getByTestId('bilan')).toContainText('Gaffes');

  // A point of the graph clicked: the position after the first move.
  await page.locator('.graph-hit[data-ply="1"]').click();
  await expect(page.getByTestId('coup-affiche')).toHaveText('Coup 1 sur 2');
  await expect(page.getByTestId('verdict')).toContainText('28-23 (blancs) : gaffe');
  // The start: the engine's move drawn on the board, not 28-23.
  await page.locator('.graph-hit[data-ply="0"]').click();
  await expect(page.getByTestId('coup-affiche')).toHaveText('Position de départ');
  await expect(page.locator('.board .sq.hint')).not.toHaveCount(0);
  await expect(page.locator('.board [data-square="23"].hint')).toHaveCount(0);
  await page.screenshot({ path: `${shots}/analysis-desktop.png` });

  // Seen again: shown at once, drawn by the server (no button, no search).
  await page.goto(`/analyse/${id}`);
  await expect(page.getByTestId('graphe')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Analyser la partie' })).toHaveCount(0);
});

test('keyboard only: the graph walks the game with the arrows, Début and Fin', async ({ page }) => {
  const id = await blunderedGame(page);
  await page.goto(`/analyse/${id}`);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Analyser la partie' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('graphe')).toBeVisible({ timeout: 60_000 });
  // Tab to the graph.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.getAttribute('role') === 'slider')) break;
  }
  const graph = page.getByRole('slider', { name: /Évaluation de la partie/ });
  await expect(graph).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByTestId('coup-affiche')).toHaveText('Coup 2 sur 2');
  await expect(graph).toHaveAttribute('aria-valuenow', '2');
  await page.keyboard.press('Home');
  await expect(page.getByTestId('coup-affiche')).toHaveText('Position de départ');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('coup-affiche')).toHaveText('Coup 1 sur 2');
  await expect(graph).toHaveAttribute('aria-valuetext', /gaffe/);
  await page.keyboard.press('ArrowLeft');
  await expect(graph).toHaveAttribute('aria-valuenow', '0');
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  test('the analysis on a phone: progress, then the graph under the board', async ({ page }) => {
    const id = await blunderedGame(page);
    await page.goto(`/analyse/${id}`);
    await analyse(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const board = await page.locator('.board').boundingBox();
    expect(board!.y + board!.height).toBeLessThanOrEqual(844);
    await page.locator('.graph-hit[data-ply="1"]').tap();
    await expect(page.getByTestId('coup-affiche')).toHaveText('Coup 1 sur 2');
    await page.screenshot({ path: `${shots}/analysis-phone.png`, fullPage: true });
  });
});

test('no accessibility violation on the analysis page, before and after', async ({ page }) => {
  const id = await blunderedGame(page);
  await page.goto(`/analyse/${id}`);
  await waitForHydration(page);
  let results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  await analyse(page);
  results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});
