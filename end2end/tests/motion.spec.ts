// Moves that move: a played move slides its piece (a rafle jump by jump,
// the men taken fading at its end), the computer's reply is drawn after the
// player's move has landed, and nothing moves under prefers-reduced-motion
// — while the move itself is played at once either way.
import { test, expect, Page } from '@playwright/test';
import { fen, startTestGame, waitForHydration } from './helpers';

// The configuration turns the motion off for the other tests.
test.use({ reducedMotion: 'no-preference' });

/** Counts the animations the page starts from now on, with the square of
 * each animated element and whether it is a piece leaving. */
async function countAnimations(page: Page) {
  await page.evaluate(() => {
    const w = window as any;
    w.__animations = [];
    w.__started = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, ...args: any[]) {
      w.__animations.push(`${this.closest('[data-square]')?.getAttribute('data-square')} ${this.className}`);
      w.__started.push(performance.now());
      return animate.apply(this, args as any);
    };
  });
}

const animations = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__animations);

test('a rafle slides along its path and the men taken leave at its end', async ({ page }) => {
  // White's king on 47 takes 33, 12 and 9 (ending on 17, 21 or 26).
  await startTestGame(page, 'W:WK47,40:B9,12,33');
  await page.goto('/partie-libre');
  await waitForHydration(page);
  await countAnimations(page);
  await page.locator('[data-square="47"]').click();
  await page.locator('[data-square="26"]').click();
  await expect.poll(() => fen(page)).not.toContain('K47');
  const drawn = await animations(page);
  expect(drawn.some((a) => a.startsWith('26 piece wk')), drawn.join('; ')).toBe(true);
  expect(drawn.filter((a) => a.includes('leaving')).length, drawn.join('; ')).toBe(3);
  // The ghosts go once the rafle has landed.
  await expect(page.locator('.piece.leaving')).toHaveCount(0);
});

test('the computer replies once the move has landed, with its own slide', async ({ page }) => {
  await page.goto('/partie-libre');
  await waitForHydration(page);
  await countAnimations(page);
  await page.locator('[data-square="32"]').click();
  await page.locator('[data-square="28"]').click();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', /^W:/);
  await expect.poll(async () => (await animations(page)).length).toBeGreaterThanOrEqual(2);
  const [mine, reply] = await animations(page);
  expect(mine).toMatch(/^28 piece wm/);
  expect(reply).toMatch(/ piece bm/);
  // The reply starts once the player's slide (180 ms) is over.
  const [mineAt, replyAt] = await page.evaluate(() => (window as any).__started);
  expect(replyAt - mineAt).toBeGreaterThanOrEqual(170);
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test('nothing moves, and the move is played at once', async ({ page }) => {
    await page.goto('/deux-joueurs');
    await waitForHydration(page);
    await countAnimations(page);
    const before = await fen(page);
    await page.locator('[data-square="32"]').click();
    await page.locator('[data-square="28"]').click();
    await expect.poll(() => fen(page)).not.toBe(before);
    expect(await animations(page)).toEqual([]);
  });
});
