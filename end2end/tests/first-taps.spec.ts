// Taps before the browser code has arrived (a slow phone): the page's small
// script marks a piece's destinations from what the server wrote, and the
// board plays every such tap again once it is live.
import { test, expect, Page } from '@playwright/test';
import { waitForHydration } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Holds every wasm module back until the returned function is called. */
async function holdWasm(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/*.wasm', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('a tap before the code arrives marks the destinations, and the board keeps the selection', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('/partie-libre');
  await page.locator('[data-square="33"]').tap();
  await expect(page.locator('[data-square="33"]')).toHaveClass(/selected/);
  await expect(page.locator('.sq.final')).toHaveCount(2);
  await expect(page.locator('[data-square="28"]')).toHaveClass(/final/);
  await expect(page.locator('[data-square="29"]')).toHaveClass(/final/);
  expect(await page.evaluate(() => (window as any).__damesHydrated)).toBeFalsy();
  // Another piece moves the marks.
  await page.locator('[data-square="31"]').tap();
  await expect(page.locator('.sq.selected')).toHaveCount(1);
  await expect(page.locator('[data-square="31"]')).toHaveClass(/selected/);
  await expect(page.locator('[data-square="28"]')).not.toHaveClass(/final/);
  await expect(page.locator('[data-square="26"]')).toHaveClass(/final/);

  release();
  await waitForHydration(page);
  // The board took the taps over: 31 is selected, and its destination plays.
  await expect(page.locator('[data-square="31"]')).toHaveClass(/selected/);
  await expect(page.locator('.sq.final')).toHaveCount(2);
  await page.locator('[data-square="26"]').tap();
  await expect(page.locator('[data-testid="coups"] li')).toHaveCount(1);
  await expect(page.locator('.sq.selected')).toHaveCount(0);
});

test('a whole move tapped before the code arrives is played once it has', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('/partie-libre');
  const before = await page.locator('.board').getAttribute('data-fen');
  await page.locator('[data-square="34"]').tap();
  await expect(page.locator('[data-square="30"]')).toHaveClass(/final/);
  await page.locator('[data-square="30"]').tap();
  // Nothing is played before the board is live: the marks stay.
  await expect(page.locator('[data-square="34"]')).toHaveClass(/selected/);
  expect(await page.locator('.board').getAttribute('data-fen')).toBe(before);

  release();
  await waitForHydration(page);
  await expect(page.locator('[data-testid="coups"] li')).toHaveCount(1);
  await expect(page.locator('[data-square="30"] [data-piece]')).toHaveAttribute('data-piece', /w/);
});

test('a tap away from the pieces clears the marks, and nothing is replayed', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('/partie-libre');
  await page.locator('[data-square="32"]').tap();
  await expect(page.locator('.sq.final')).toHaveCount(2);
  await page.locator('[data-square="22"]').tap();
  await expect(page.locator('.sq.final, .sq.selected')).toHaveCount(0);
  release();
  await waitForHydration(page);
  await expect(page.locator('.sq.final, .sq.selected')).toHaveCount(0);
  await expect(page.locator('[data-testid="coups"] li')).toHaveCount(0);
});
