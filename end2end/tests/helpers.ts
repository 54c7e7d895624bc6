import { expect, Page } from '@playwright/test';

/** Starts a game from `fen` for this browser's player (debug builds only),
 * under the daily rules unless `rules` (the text form) says otherwise. */
export async function startTestGame(
  page: Page,
  fen: string,
  level = 'Debutant',
  kind = 'Free',
  seed: number | string = 1,
  rules?: string,
) {
  const form: Record<string, string> = { fen, level, seed: String(seed), kind };
  if (rules) form.rules = rules;
  const response = await page.request.post('/api/test/partie', { form });
  expect(response.status(), await response.text()).toBe(200);
}

/** Moves the keyboard focus on the board to square `target` with the arrow
 * keys alone (`size` squares a side, `flipped` for Black at the bottom). */
export async function arrowTo(page: Page, target: number, size: number, flipped = false) {
  const perRow = size / 2;
  const place = (n: number) => {
    const row = Math.floor((n - 1) / perRow);
    const index = (n - 1) % perRow;
    return { row, col: row % 2 === 0 ? index * 2 + 1 : index * 2 };
  };
  const focused = async () => Number(await page.evaluate(() => document.activeElement?.getAttribute('data-square')));
  const [up, down, left, right] = flipped
    ? ['ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft']
    : ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
  for (let i = 0; i < 40; i++) {
    const at = await focused();
    if (at === target) return;
    const from = place(at);
    const to = place(target);
    if (from.row > to.row) await page.keyboard.press(up);
    else if (from.row < to.row) await page.keyboard.press(down);
    else await page.keyboard.press(from.col > to.col ? left : right);
  }
  expect(await focused()).toBe(target);
}

/**
 * Waits until the page has hydrated: every island on it is live (a lazy
 * island only once its chunk has arrived), so a click on a movable piece
 * selects it and a key reaches the screen.
 */
export async function waitForHydration(page: Page) {
  await expect(page.locator('html')).toBeVisible();
  await page.waitForFunction(
    () =>
      (window as any).__damesHydrated === true &&
      ((window as any).__damesIslands ?? 0) >= document.querySelectorAll('leptos-island').length,
    null,
    { timeout: 30_000 },
  );
}

export async function fen(page: Page): Promise<string> {
  return (await page.locator('.board').getAttribute('data-fen')) ?? '';
}

/** What the board shows of the move being entered: the selected piece,
 * the squares it may go to, the pieces jumped so far. */
async function entryMarks(page: Page): Promise<string> {
  return page
    .locator('.board .sq.selected, .board .sq.final, .board .sq.step, .board .sq.ghost')
    .evaluateAll((cells) => cells.map((c) => `${c.getAttribute('data-square')} ${c.className}`).join(';'));
}

/** Plays one move through the board the way a mouse user would: the first
 * marked piece (a capturing one when capture is forced), then the first
 * destination, tapping landing squares one by one when needed. Returns
 * whether the move was a capture.
 *
 * Each touch waits for the board to answer before the next one is chosen:
 * a tap's click reaches the page a moment after `tap()` returns, so
 * reading the marks at once can find none (or the previous step's). */
export async function playSomeMove(page: Page, tap = false): Promise<boolean> {
  const before = await fen(page);
  const capture = (await page.locator('.sq.must-capture').count()) > 0;
  const piece = page.locator(capture ? '.sq.must-capture' : '.sq.movable').first();
  if (tap) await piece.tap(); else await piece.click();
  await expect(page.locator('.board .sq.final, .board .sq.step').first()).toBeVisible();
  for (let i = 0; i < 25; i++) {
    const final = page.locator('.board .sq.final').first();
    const target = (await final.count()) > 0 ? final : page.locator('.board .sq.step').first();
    const shown = await entryMarks(page);
    if (tap) await target.tap(); else await target.click();
    await expect
      .poll(async () => (await fen(page)) !== before || (await entryMarks(page)) !== shown)
      .toBe(true);
    if ((await fen(page)) !== before) break;
  }
  await expect.poll(() => fen(page)).not.toBe(before);
  return capture;
}
