import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { fen, playSomeMove, startTestGame, waitForHydration } from './helpers';

const shots = 'test-results/screenshots';

test('mouse: a whole game against debutant, with captures', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/partie-libre?niveau=debutant');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Débutant');
  await page.screenshot({ path: `${shots}/desktop-start.png`, fullPage: true });
  let captures = 0;
  for (let i = 0; i < 200; i++) {
    if ((await page.locator('.status.over').count()) > 0) break;
    await expect(page.locator('.sq.movable').first()).toBeVisible();
    if (await playSomeMove(page)) captures++;
    // Wait for the computer's answer (or the end).
    await expect(page.locator('.sq.movable, .status.over').first()).toBeVisible();
    if (i === 6) await page.screenshot({ path: `${shots}/desktop-mid-game.png`, fullPage: true });
  }
  await expect(page.locator('.status.over')).toBeVisible();
  expect(captures).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Rejouer' })).toBeVisible();
  await page.screenshot({ path: `${shots}/desktop-end.png`, fullPage: true });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  test('the board fits and a move is played by taps', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await page.locator('.board').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    expect(box!.width).toBeGreaterThan(300);
    await page.locator('[data-square="33"]').tap();
    await expect(page.locator('[data-square="33"]')).toHaveClass(/selected/);
    await page.locator('[data-square="29"]').tap();
    await expect(page.locator('[data-testid="coups"] li')).toHaveCount(1);
    await expect(page.locator('.sq.last-path')).not.toHaveCount(0);
    await page.screenshot({ path: `${shots}/phone.png`, fullPage: true });
  });
});

test('keyboard only: arrows, Enter and Escape', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  // Tab until the board's one tab stop has the focus.
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const onBoard = await page.evaluate(() => document.activeElement?.getAttribute('role') === 'gridcell');
    if (onBoard) break;
  }
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-square'));
  expect(await focused()).toBe('32');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-square="32"]')).toHaveClass(/selected/);
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-square="32"]')).not.toHaveClass(/selected/);
  await page.keyboard.press('ArrowRight');
  expect(await focused()).toBe('33');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  expect(await focused()).toBe('28');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="coups"] li').first()).toContainText('33-28');
  await expect(page.locator('[data-testid="annonce"]')).toContainText("L'ordinateur joue");
});

test('a rafle with two routes is played step by step, ghosts showing', async ({ page }) => {
  // From a real game (Baba Sy), seen from White: the king on 49 can end
  // on 34 by two routes that take different pieces.
  await startTestGame(page, 'W:WK49,44,36,26:B29,27,24,20,17,11,6,3');
  await page.goto('/partie-libre');
  await waitForHydration(page);
  const start = await fen(page);
  await page.locator('[data-square="49"]').click();
  await expect(page.locator('[data-square="34"]')).not.toHaveClass(/final/);
  await page.locator('.sq.step').first().click();
  await expect(page.locator('.sq.ghost')).toHaveCount(1);
  await page.screenshot({ path: `${shots}/rafle-steps.png` });
  for (let i = 0; i < 10 && (await fen(page)) === start; i++) {
    const final = page.locator('.sq.final').first();
    await ((await final.count()) > 0 ? final : page.locator('.sq.step').first()).click();
  }
  await expect.poll(() => fen(page)).not.toBe(start);
  await expect(page.locator('[data-testid="coups"] li').first()).toContainText('49x');
});

test('a rafle with one route is played by touching its final square', async ({ page }) => {
  await startTestGame(page, 'W:WK47,40:B9,12,33');
  await page.goto('/partie-libre');
  await waitForHydration(page);
  await page.locator('[data-square="47"]').click();
  await expect(page.locator('[data-square="26"]')).toHaveClass(/final/);
  await page.locator('[data-square="26"]').click();
  await expect(page.locator('.status.over')).toContainText('gagné');
  await expect(page.locator('[data-piece="bm"]')).toHaveCount(0);
});

test('a reload resumes the same position', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  await playSomeMove(page);
  await expect(page.locator('[data-testid="coups"] li span').nth(2)).not.toHaveText('');
  const position = await fen(page);
  await page.reload();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', position);
});

test('without JavaScript the board shows the right pieces', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'W:W31-50:B1-20');
  await expect(page.locator('[data-piece="wm"]')).toHaveCount(20);
  await expect(page.locator('[data-piece="bm"]')).toHaveCount(20);
  await expect(page.locator('[data-square="1"] [data-piece="bm"]')).toHaveCount(1);
  await expect(page.locator('[data-square="50"] [data-piece="wm"]')).toHaveCount(1);
  await context.close();
});

for (const path of ['/', '/partie-libre', '/regles']) {
  test(`no accessibility violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await waitForHydration(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  });
}
