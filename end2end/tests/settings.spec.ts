// The settings ("Réglages"): each one, changed on its page with the mouse
// or the keyboard, survives a reload and reaches the page the server
// renders (its HTML, before any script runs); and each one does what it
// says on the board: confirmation, rafles square by square, destinations
// hidden, square numbers, sounds.
import { test, expect, Page, BrowserContext } from '@playwright/test';
import { fen, startTestGame, waitForHydration } from './helpers';

const COOKIE = 'dames_reglages';

/** Gives this browser the settings `value` (the cookie's own format). */
async function setSettings(context: BrowserContext, value: string) {
  await context.addCookies([{ name: COOKIE, value, url: test.info().project.use.baseURL! }]);
}

/** The page at `path` as the server sends it, with this browser's cookies. */
async function serverHtml(page: Page, path: string): Promise<string> {
  const response = await page.request.get(path);
  expect(response.status()).toBe(200);
  return response.text();
}

test('each setting, changed on its page, survives a reload and reaches the server-rendered page', async ({ page }) => {
  await page.goto('/reglages');
  const before = await serverHtml(page, '/');
  expect(before).toContain('<body data-palette="bois">');
  expect(before).toContain('class="board"');

  // The palette by the keyboard alone: focus the first radio, arrow on.
  await page.getByLabel('Bois (par défaut)').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('Contraste élevé')).toBeChecked();
  // The switches by the mouse, and one by the space bar.
  await page.getByLabel('Numéros des cases').check();
  await page.getByLabel(/Montrer les destinations/).uncheck();
  await page.getByLabel(/Confirmer chaque coup/).focus();
  await page.keyboard.press(' ');
  await page.getByLabel(/Un son pour chaque coup/).check();
  await page.getByLabel(/Case par case/).check();
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByRole('status')).toContainText('Réglages enregistrés');

  await page.reload();
  for (const label of ['Contraste élevé', 'Numéros des cases', /Confirmer chaque coup/, /Un son pour chaque coup/, /Case par case/]) {
    await expect(page.getByLabel(label)).toBeChecked();
  }
  await expect(page.getByLabel(/Montrer les destinations/)).not.toBeChecked();

  const html = await serverHtml(page, '/');
  expect(html).toContain('<body data-palette="contraste">');
  expect(html).toContain('class="board numbers no-destinations"');
  // The game screen's island gets them as its props.
  expect(html).toMatch(/confirm_moves(&quot;|"):true/);
  expect(html).toMatch(/sound(&quot;|"):true/);
  expect(html).toMatch(/rafle_input(&quot;|"):(&quot;|")SquareBySquare/);

  // Drawn as the server sent it: no flash to another palette.
  await page.goto('/partie-libre');
  await waitForHydration(page);
  await expect(page.locator('body')).toHaveAttribute('data-palette', 'contraste');
  const dark = await page.locator('.sq.dark').first().evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(dark).toBe('rgb(58, 58, 58)');
});

test('the numbers button of a game changes the setting for the next page', async ({ page }) => {
  await page.goto('/deux-joueurs');
  await waitForHydration(page);
  await expect(page.locator('.board')).not.toHaveClass(/numbers/);
  await page.getByRole('button', { name: 'Numéros des cases' }).click();
  await expect(page.locator('.board')).toHaveClass(/numbers/);
  expect(await serverHtml(page, '/partie-libre')).toContain('class="board numbers"');
  await page.goto('/reglages');
  await expect(page.getByLabel('Numéros des cases')).toBeChecked();
});

test('with confirmation on, a move waits for "Jouer", by the mouse or by Entrée', async ({ page, context }) => {
  await setSettings(context, 'confirmation=1');
  await page.goto('/deux-joueurs');
  await waitForHydration(page);
  const start = await fen(page);
  await page.locator('[data-square="32"]').click();
  await page.locator('[data-square="28"]').click();
  const play = page.getByRole('button', { name: 'Jouer 32-28' });
  await expect(play).toBeFocused();
  await expect(page.locator('[data-square="28"]')).toHaveClass(/proposed/);
  await expect(page.locator('[data-square="28"]')).toHaveAttribute('aria-label', /coup à confirmer/);
  expect(await fen(page)).toBe(start);
  // "Annuler" drops it, and nothing was sent.
  await page.getByRole('button', { name: 'Annuler' }).click();
  await expect(page.locator('.confirm-move')).toHaveCount(0);
  expect(await fen(page)).toBe(start);
  // Échap drops it too.
  await page.locator('[data-square="32"]').click();
  await page.locator('[data-square="28"]').click();
  await expect(play).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('.confirm-move')).toHaveCount(0);
  // Entered again and confirmed with Entrée.
  await page.locator('[data-square="33"]').click();
  await page.locator('[data-square="29"]').click();
  await expect(page.getByRole('button', { name: 'Jouer 33-29' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => fen(page)).not.toBe(start);
  expect(await fen(page)).toMatch(/^B:/);
  await expect(page.locator('.confirm-move')).toHaveCount(0);
});

test('square by square, a rafle takes a tap on each landing square', async ({ page, context }) => {
  await setSettings(context, 'rafle=case-par-case');
  // White's king on 47 takes 33, 12 and 9, ending on 17, 21 or 26: by the
  // final square one tap on 26 plays it (see play.spec.ts).
  await startTestGame(page, 'W:WK47,40:B9,12,33');
  await page.goto('/partie-libre');
  await waitForHydration(page);
  await page.locator('[data-square="47"]').click();
  await expect(page.locator('.sq.final')).toHaveCount(0);
  await page.locator('[data-square="26"]').click();
  expect(await fen(page)).toContain('K47');
  await page.locator('[data-square="47"]').click();
  let taps = 0;
  while ((await page.locator('.sq.final').count()) === 0) {
    await page.locator('.sq.step').first().click();
    taps += 1;
    expect(taps).toBeLessThan(3);
  }
  expect(taps).toBe(2);
  await page.locator('.sq.final').first().click();
  await expect.poll(() => fen(page)).not.toContain('K47');
  await expect(page.locator('.board [data-piece="bm"]')).toHaveCount(0);
});

test('destinations hidden: the squares keep their classes, without a mark', async ({ page, context }) => {
  await setSettings(context, 'destinations=0');
  await page.goto('/deux-joueurs');
  await waitForHydration(page);
  await page.locator('[data-square="32"]').click();
  const target = page.locator('[data-square="28"]');
  await expect(target).toHaveClass(/final/);
  expect(await target.evaluate((e) => getComputedStyle(e, '::before').display)).toBe('none');
  await expect(target).not.toHaveAttribute('aria-label', /destination possible/);
  // Still played by a tap.
  await target.click();
  await expect.poll(() => fen(page)).toMatch(/^B:/);
});

/** Counts the notes the page's Web Audio plays from the start. */
async function countNotes(page: Page) {
  await page.addInitScript(() => {
    const w = window as any;
    w.__notes = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.__notes += 1;
      return create.call(this);
    };
  });
}

test('sounds are made for a move only when the setting is on', async ({ page, context }) => {
  await countNotes(page);
  await page.goto('/deux-joueurs');
  await waitForHydration(page);
  // The board shows the move at once and the server stores it after: the
  // page is left only once it has, so that the next one resumes the game.
  const stored = page.waitForResponse((r) => r.url().includes('/api/partie/commencer') && r.status() === 200);
  await page.locator('[data-square="32"]').click();
  await page.locator('[data-square="28"]').click();
  await stored;
  await expect.poll(() => fen(page)).toMatch(/^B:/);
  expect(await page.evaluate(() => (window as any).__notes)).toBe(0);

  await setSettings(context, 'son=1');
  await page.goto('/deux-joueurs');
  await waitForHydration(page);
  expect(await fen(page)).toMatch(/^B:/);
  await page.locator('[data-square="19"]').click();
  await page.locator('[data-square="23"]').click();
  await expect.poll(() => fen(page)).toMatch(/^W:/);
  await expect.poll(() => page.evaluate(() => (window as any).__notes)).toBeGreaterThanOrEqual(1);
});
