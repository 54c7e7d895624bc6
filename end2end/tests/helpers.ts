import { expect, Page } from '@playwright/test';

/** Starts a game from `fen` for this browser's player (debug builds only). */
export async function startTestGame(page: Page, fen: string, level = 'Debutant', kind = 'Free', seed = 1) {
  const response = await page.request.post('/api/test/partie', {
    form: { fen, level, seed: String(seed), kind },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Waits until the page has hydrated: a click on a movable piece selects it. */
export async function waitForHydration(page: Page) {
  await expect(page.locator('html')).toBeVisible();
  await page.waitForFunction(() => (window as any).__damesHydrated === true, null, { timeout: 30_000 });
}

export async function fen(page: Page): Promise<string> {
  return (await page.locator('.board').getAttribute('data-fen')) ?? '';
}

/** Plays one move through the board the way a mouse user would: the first
 * marked piece (a capturing one when capture is forced), then the first
 * destination, tapping landing squares one by one when needed. Returns
 * whether the move was a capture. */
export async function playSomeMove(page: Page, tap = false): Promise<boolean> {
  const before = await fen(page);
  const capture = (await page.locator('.sq.must-capture').count()) > 0;
  const piece = page.locator(capture ? '.sq.must-capture' : '.sq.movable').first();
  if (tap) await piece.tap(); else await piece.click();
  for (let i = 0; i < 25; i++) {
    const final = page.locator('.sq.final').first();
    const target = (await final.count()) > 0 ? final : page.locator('.sq.step').first();
    if (tap) await target.tap(); else await target.click();
    if ((await fen(page)) !== before) break;
  }
  await expect.poll(() => fen(page)).not.toBe(before);
  return capture;
}
