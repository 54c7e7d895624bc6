import { test, expect, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'child_process';
import { fen, playSomeMove, waitForHydration } from './helpers';

const shots = 'test-results/screenshots';

async function open(page: Page) {
  await page.goto('/dames-electroniques');
  await waitForHydration(page);
}

async function chooseLevel(page: Page, level: string) {
  await page.locator('label.level select').selectOption(level);
  await expect(page.getByTestId('lcd-niveau')).toHaveText(`Niveau ${level}`);
}

/** Sets up `pieces` (square → code) with the editor, by mouse or keyboard. */
async function setUp(page: Page, pieces: [number, 'wm' | 'wk' | 'bm' | 'bk'][], keyboard: boolean) {
  await page.getByRole('button', { name: 'Mettre en place' }).click();
  await page.getByRole('button', { name: 'Vider le damier' }).click();
  const cycle = ['wm', 'wk', 'bm', 'bk'];
  for (const [square, code] of pieces) {
    const cell = page.locator(`.editor-board [data-square="${square}"]`);
    const presses = cycle.indexOf(code) + 1;
    if (keyboard) {
      await cell.focus();
      for (let i = 0; i < presses; i++) await page.keyboard.press('Enter');
    } else {
      for (let i = 0; i < presses; i++) await cell.click();
    }
    await expect(cell.locator(`[data-piece="${code}"]`)).toHaveCount(1);
  }
}

test('set up with mouse and keyboard, then play it against level 1 to the end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page);
  await chooseLevel(page, '1');
  await setUp(page, [[28, 'wm']], false);
  // The keyboard: arrows from the focused square, Enter cycles the piece.
  await page.locator('.editor-board [data-square="28"]').focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-square'))).toBe('17');
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-square'))).toBe('22');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
  await expect(page.locator('.editor-board')).toHaveAttribute('data-fen', 'W:W28:B22');
  // An impossible position is refused in French, and changes nothing.
  await page.locator('.editor-board [data-square="3"]').click();
  await page.screenshot({ path: `${shots}/electronic-editor.png`, fullPage: true });
  await page.getByRole('button', { name: 'Jouer cette position' }).click();
  await expect(page.getByRole('alert')).toContainText('rangée de promotion');
  await page.locator('.editor-board [data-square="3"]').click();
  await page.locator('.editor-board [data-square="3"]').click();
  await page.locator('.editor-board [data-square="3"]').click();
  await page.locator('.editor-board [data-square="3"]').click();
  await expect(page.locator('.editor-board')).toHaveAttribute('data-fen', 'W:W28:B22');
  await page.getByRole('button', { name: 'Jouer cette position' }).click();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'W:W28:B22');
  await playSomeMove(page);
  await expect(page.locator('.status.over')).toContainText('Vous avez gagné');
});

test('take back three moves and play another line', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await chooseLevel(page, '1');
  const firsts: string[] = [];
  for (let i = 0; i < 3; i++) {
    await playSomeMove(page);
    await expect(page.getByTestId('lcd-coup')).not.toHaveText('--');
    await expect(page.locator('.sq.movable').first()).toBeVisible();
  }
  firsts.push(await page.getByTestId('coups').locator('span').nth(1).innerText());
  const start = 'W:W31-50:B1-20';
  for (let i = 0; i < 3; i++) {
    await page.getByRole('button', { name: 'Reprendre' }).click();
    await expect(page.getByTestId('annonce')).toHaveText('Coup repris.');
  }
  await expect(page.locator('.board')).toHaveAttribute('data-fen', start);
  await expect(page.getByRole('button', { name: 'Reprendre' })).toBeDisabled();
  // Another first move than before.
  await page.locator('[data-square="35"]').click();
  await page.locator('[data-square="30"]').click();
  await expect(page.getByTestId('coups').locator('li').first()).toContainText('35-30');
});

test('a hint is the move dames bestmove gives at that level', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await chooseLevel(page, '3');
  for (let i = 0; i < 3; i++) {
    await playSomeMove(page);
    await expect(page.locator('.sq.movable').first()).toBeVisible();
  }
  await page.getByRole('button', { name: 'Conseil' }).click();
  await expect(page.getByTestId('lcd-conseil')).toContainText('Conseil ');
  const shown = (await page.getByTestId('lcd-conseil').innerText()).replace('Conseil ', '').trim();
  await expect(page.locator('.sq.hint')).not.toHaveCount(0);
  const out = execFileSync('../target/debug/dames', ['bestmove', await fen(page), '--level', '3']).toString();
  expect(out.split(/\s+/)[1]).toBe(shown);
  await page.screenshot({ path: `${shots}/electronic-hint.png`, fullPage: true });
});

test('a hint for the first move, before the game is stored', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await open(page);
  await expect(page.getByTestId('lcd-niveau')).toHaveText('Niveau 2');
  await page.getByRole('button', { name: 'Conseil' }).click();
  await expect(page.getByTestId('lcd-conseil')).toContainText('Conseil ');
  const shown = (await page.getByTestId('lcd-conseil').innerText()).replace('Conseil ', '').trim();
  const out = execFileSync('../target/debug/dames', ['bestmove', 'start', '--level', '2']).toString();
  expect(out.split(/\s+/)[1]).toBe(shown);
  await context.close();
});

test('switch sides twice: the computer takes over the side to move', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await chooseLevel(page, '2');
  await playSomeMove(page);
  await expect(page.locator('.sq.movable').first()).toBeVisible();
  const plies = () => page.getByTestId('coups').locator('span').filter({ hasText: /\d+[-x]\d+/ }).count();
  expect(await plies()).toBe(2);
  const firstSquare = () => page.locator('.board .row').first().locator('[data-square]').first().getAttribute('data-square');
  await page.getByRole('button', { name: 'Changer de camp' }).click();
  await expect(page.getByTestId('statut')).toHaveText('À vous de jouer (noirs).');
  expect(await plies()).toBe(3);
  await expect.poll(firstSquare).toBe('50');
  await page.getByRole('button', { name: 'Changer de camp' }).click();
  await expect(page.getByTestId('statut')).toHaveText('À vous de jouer (blancs).');
  expect(await plies()).toBe(4);
  await expect.poll(firstSquare).toBe('1');
});

test('one king against three: drawn after 10 moves each, then play goes on', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page);
  await chooseLevel(page, '4');
  // The player's three kings stand on the edge, where no piece can be
  // taken; one of them goes to and fro along it. The computer's lone king
  // cannot win, and does not walk into a capture.
  await setUp(page, [[16, 'wk'], [36, 'wk'], [50, 'wk'], [23, 'bk']], false);
  await page.getByRole('button', { name: 'Jouer cette position' }).click();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'W:WK16,K36,K50:BK23');
  const edge = (n: number) => n <= 5 || n >= 46 || n % 10 === 6 || n % 10 === 5;
  for (let turn = 0; turn < 10; turn++) {
    await expect(page.locator('.sq.movable, .status.over').first()).toBeVisible();
    if ((await page.locator('.status.over').count()) > 0) break;
    const before = await fen(page);
    const mover = (await page.locator('.board [data-square="50"] [data-piece]').count()) > 0 ? '50' : '45';
    await page.locator(`.board [data-square="${mover}"]`).click();
    await expect(page.locator('.board .sq.final').first()).toBeVisible();
    const finals = await page.locator('.board .sq.final').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-square'))));
    const to = finals.find((n) => n === (mover === '50' ? 45 : 50)) ?? finals.find(edge) ?? finals[0];
    await page.locator(`.board [data-square="${to}"]`).click();
    await expect.poll(() => fen(page)).not.toBe(before);
  }
  await expect(page.locator('.status.over')).toContainText('10 coups de chaque côté');
  await page.screenshot({ path: `${shots}/electronic-endgame-draw.png`, fullPage: true });
  await page.getByRole('button', { name: 'Continuer la partie' }).click();
  await expect(page.locator('.status.over')).toHaveCount(0);
  const before = await fen(page);
  await playSomeMove(page);
  await expect.poll(() => fen(page)).not.toBe(before);
  await page.reload();
  await waitForHydration(page);
  await expect(page.locator('.status.over')).toHaveCount(0);
});

test('a take-back in a game that is not yours is refused and changes nothing', async ({ page, browser }) => {
  await open(page);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await playSomeMove(page);
  await expect(page.locator('.sq.movable').first()).toBeVisible();
  const id = await page.locator('section.play').getAttribute('data-partie');
  const position = await fen(page);
  const other = await browser.newContext();
  const stranger = await other.request.post(`${page.url().replace(/\/dames-electroniques.*/, '')}/api/electronique/reprendre`, {
    form: { game_id: id!, ply: '2', to_ply: '0' },
  });
  expect(stranger.status()).toBe(403);
  const tooMany = await page.request.post('/api/electronique/position', {
    form: { fen: 'W:W1-21:B30', step: '1', player: 'White' },
  });
  expect(tooMany.status()).toBe(400);
  const badLevel = await page.request.post('/api/electronique/niveau', { form: { game_id: id!, ply: '2', step: '9' } });
  expect(badLevel.status()).toBe(400);
  await page.reload();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', position);
  await other.close();
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  test('the electronic board by touch', async ({ page }) => {
    await open(page);
    await page.getByRole('button', { name: 'Nouvelle partie' }).click();
    await playSomeMove(page, true);
    await expect(page.getByTestId('lcd-coup')).not.toHaveText('--');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Mettre en place' }).tap();
    await page.getByRole('button', { name: 'dame noire' }).tap();
    await page.locator('.editor-board [data-square="23"]').tap();
    await expect(page.locator('.editor-board [data-square="23"] [data-piece="bk"]')).toHaveCount(1);
    await page.screenshot({ path: `${shots}/phone-electronic.png`, fullPage: true });
  });
});

test('no accessibility violation on the electronic board and its editor', async ({ page }) => {
  await open(page);
  let results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  await page.getByRole('button', { name: 'Mettre en place' }).click();
  results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});
