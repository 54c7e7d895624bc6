import { test, expect, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { arrowTo, fen, playSomeMove, startTestGame, waitForHydration } from './helpers';

const shots = 'test-results/screenshots';

/** Plays on (with `tap` or the mouse) until the game is over. */
async function playToTheEnd(page: Page, tap: boolean, maxMoves = 400) {
  for (let i = 0; i < maxMoves; i++) {
    if ((await page.locator('.status.over').count()) > 0) return;
    await expect(page.locator('.sq.movable, .status.over').first()).toBeVisible();
    if ((await page.locator('.status.over').count()) > 0) return;
    await playSomeMove(page, tap);
  }
  await expect(page.locator('.status.over')).toBeVisible();
}

/** From and final square of each move of a 23-ply English game that Black
 * wins by taking every White man. */
const SHORT_ENGLISH_GAME: [number, number][] = [
  [10, 14], [21, 17], [14, 21], [24, 19], [11, 16], [23, 18], [16, 23], [26, 19], [8, 11], [30, 26],
  [21, 30], [22, 17], [30, 21], [29, 25], [21, 30], [31, 26], [30, 16], [28, 24], [11, 15], [24, 19],
  [15, 31], [32, 27], [31, 24],
];

/** Plays the move from `from` to `to` by two taps (its final square names it). */
async function tapMove(page: Page, [from, to]: [number, number]) {
  const before = await fen(page);
  await page.locator(`[data-square="${from}"]`).tap();
  await page.locator(`[data-square="${to}"]`).tap();
  await expect.poll(() => fen(page)).not.toBe(before);
}

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  test('1 vs 1: a whole English game by taps, both sides, resumed after a reload', async ({ page }) => {
    await page.goto('/deux-joueurs?regles=english');
    await waitForHydration(page);
    const board = page.locator('.board');
    await expect(board).toHaveAttribute('data-rules', 'english');
    await expect(board).toHaveAttribute('data-fen', 'B:W21-32:B1-12');
    await expect(page.locator('[data-square]')).toHaveCount(32);
    await expect(page.getByTestId('statut')).toHaveText('Aux noirs de jouer.');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/phone-english-start.png`, fullPage: true });
    // A short whole game (White gives its men away; the engine found it):
    // rafles of two and three men, a crowning, then the crowned king's
    // rafles, each entered by its final square. Black opens, then White,
    // both sides from the same screen.
    const [first, second, ...rest] = SHORT_ENGLISH_GAME;
    await tapMove(page, first);
    await expect(page.getByTestId('statut')).toContainText('Aux blancs de jouer');
    await tapMove(page, second);
    const position = await fen(page);
    await page.reload();
    await waitForHydration(page);
    await expect(board).toHaveAttribute('data-fen', position);
    for (const move of rest) await tapMove(page, move);
    await expect(page.locator('.status.over')).toContainText('Les noirs gagnent');
    await expect(board).toHaveAttribute('data-fen', /^W:W:B/);
    await page.screenshot({ path: `${shots}/phone-english-end.png`, fullPage: true });
  });

  test('the set-up page fits a phone', async ({ page }) => {
    await page.goto('/nouvelle-partie?mode=ordinateur');
    await waitForHydration(page);
    await page.getByText('Personnaliser les règles').tap();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/phone-setup.png`, fullPage: true });
  });
});

test('a whole Russian game against debutant as Black, with the mouse', async ({ page }) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/partie-libre?regles=russian&niveau=debutant&couleur=noirs');
  await waitForHydration(page);
  await expect(page.locator('.intro')).toContainText('non classée');
  // Black at the bottom: the first row on screen is White's back row.
  await expect(page.locator('.board .row').first().locator('[data-square]').first()).toHaveAttribute('data-square', '32');
  await page.getByRole('button', { name: 'Lancer la partie' }).click();
  await expect(page.getByTestId('statut')).toHaveText('À vous de jouer (noirs).');
  await expect(page.locator('.sq.last-path')).not.toHaveCount(0);
  await page.screenshot({ path: `${shots}/desktop-russian-black.png`, fullPage: true });
  await playToTheEnd(page, false);
  const position = await fen(page);
  await page.reload();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', position);
});

test('a custom game (international rules on 8×8, short kings) by keyboard only', async ({ page }) => {
  await page.goto('/partie-libre?regles=international,size%3D8,flying%3D0&niveau=debutant');
  await waitForHydration(page);
  await expect(page.locator('.board')).toHaveAttribute('data-rules', 'brazilian,flying=0');
  await expect(page.getByTestId('regles')).toHaveText('Règles personnalisées');
  await expect(page.locator('.intro')).toContainText('non classée');
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.getAttribute('role') === 'gridcell')) break;
  }
  for (let move = 0; move < 4; move++) {
    await expect(page.locator('.sq.movable').first()).toBeVisible();
    const before = await fen(page);
    const from = Number(await page.locator('.sq.movable').first().getAttribute('data-square'));
    await arrowTo(page, from, 8);
    await page.keyboard.press('Enter');
    for (let i = 0; i < 10 && (await fen(page)) === before; i++) {
      const next = page.locator('.sq.final, .sq.step').first();
      await arrowTo(page, Number(await next.getAttribute('data-square')), 8);
      await page.keyboard.press('Enter');
    }
    await expect.poll(() => fen(page)).not.toBe(before);
    await expect(page.getByTestId('annonce')).toContainText("L'ordinateur joue");
  }
  await expect(page.getByTestId('coups').locator('li')).toHaveCount(4);
});

test('a Russian man crowned mid-capture goes on as a king, entered step by step', async ({ page }) => {
  await startTestGame(page, 'W:W9:B6,11,25', 'Debutant', 'Free', 1, 'russian');
  await page.goto('/partie-libre');
  await waitForHydration(page);
  await page.locator('[data-square="9"]').click();
  await expect(page.locator('[data-square="2"]')).toHaveClass(/step/);
  await page.locator('[data-square="2"]').click();
  await expect(page.locator('.sq.ghost')).toHaveCount(1);
  await expect(page.locator('[data-square="20"]')).toHaveClass(/final/);
  await page.screenshot({ path: `${shots}/russian-crowned-in-passing.png` });
  await page.locator('[data-square="20"]').click();
  await expect(page.getByTestId('coups').locator('li').first()).toContainText('9x20');
  await expect(page.locator('[data-square="20"] [data-piece="wk"], .sq.last-path [data-piece="wk"]').first()).toBeVisible();
});

test('1 vs 1: a draw offered, declined, then agreed', async ({ page }) => {
  await page.goto('/deux-joueurs?regles=russian');
  await waitForHydration(page);
  const offer = page.getByRole('button', { name: 'Proposer la nulle' });
  await expect(offer).toBeDisabled();
  await playSomeMove(page);
  await offer.click();
  await expect(page.getByTestId('offre-nulle')).toContainText('Les noirs proposent la nulle');
  await page.getByRole('button', { name: 'Refuser' }).click();
  await expect(page.getByTestId('annonce')).toContainText('Les blancs refusent la nulle');
  await playSomeMove(page);
  await offer.click();
  await page.getByRole('button', { name: 'Accepter la nulle' }).click();
  await expect(page.locator('.status.over')).toHaveText("Partie nulle d'un commun accord.");
  await page.reload();
  await expect(page.locator('.status.over')).toHaveText("Partie nulle d'un commun accord.");
});

test('1 vs 1: the same position three times is a draw', async ({ page }) => {
  await startTestGame(page, 'W:WK32:BK1', 'Debutant', 'TwoPlayers', 1, 'russian');
  await page.goto('/deux-joueurs');
  await waitForHydration(page);
  const typed = page.getByLabel('Jouer un coup en notation');
  for (const mv of ['32-28', '1-5', '28-32', '5-1', '32-28', '1-5', '28-32', '5-1']) {
    // The board marks the movable pieces once the server has the last
    // move: a move typed before that is refused ("not your turn").
    await expect(page.locator('.sq.movable').first()).toBeVisible();
    const plies = await page.getByTestId('coups').locator('span').filter({ hasText: /\d+-\d+/ }).count();
    await typed.fill(mv);
    await typed.press('Enter');
    await expect(page.getByTestId('coups').locator('span').filter({ hasText: /\d+-\d+/ })).toHaveCount(plies + 1);
  }
  await expect(page.locator('.status.over')).toHaveText('Partie nulle : la même position est revenue trois fois.');
});

test('the board turns to face the side to move when asked, and remembers it', async ({ page }) => {
  await page.goto('/deux-joueurs?regles=english');
  await waitForHydration(page);
  const firstSquare = () => page.locator('.board .row').first().locator('[data-square]').first().getAttribute('data-square');
  expect(await firstSquare()).toBe('1');
  await page.getByRole('button', { name: 'Tourner le damier vers le joueur au trait' }).click();
  // Black to move in English draughts: Black at the bottom.
  await expect.poll(firstSquare).toBe('32');
  await page.reload();
  await waitForHydration(page);
  await expect.poll(firstSquare).toBe('32');
});

test('set-up page: playing Black starts the game, the computer\'s first move made', async ({ page }) => {
  await page.goto('/nouvelle-partie?mode=ordinateur');
  await waitForHydration(page);
  await page.getByLabel('Je joue les noirs').check();
  await page.getByRole('button', { name: 'Commencer la partie' }).first().click();
  await expect(page).toHaveURL(/\/partie-libre\?regles=international&niveau=intermediaire&couleur=noirs$/);
  await expect(page.getByRole('button', { name: 'Lancer la partie' })).toHaveCount(0);
  await expect(page.getByTestId('statut')).toHaveText('À vous de jouer (noirs).');
  await expect(page.locator('.sq.last-path')).toHaveCount(1);
});

test('set-up page: a variant, then custom rules, lead to the game', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/nouvelle-partie?mode=ordinateur');
  await waitForHydration(page);
  // A variant alone is played as it is.
  await page.getByLabel(/Dames anglaises/).check();
  await page.getByLabel('Je joue les noirs').check();
  await page.getByRole('button', { name: 'Commencer la partie' }).first().click();
  await expect(page).toHaveURL(/\/partie-libre\?regles=english&niveau=intermediaire&couleur=noirs$/);
  await expect(page.locator('.board')).toHaveAttribute('data-rules', 'english');
  // A variant's rules changed one by one.
  await page.goto('/nouvelle-partie?mode=ordinateur');
  await page.getByLabel(/Dames russes/).check();
  await page.getByText('Personnaliser les règles').click();
  await page.getByRole('button', { name: 'Partir de la variante cochée' }).click();
  await expect(page.locator('#regle-size')).toHaveValue('8');
  await page.getByText('Personnaliser les règles').click();
  await expect(page.locator('#regle-volantes')).toBeChecked();
  await page.locator('#regle-volantes').uncheck();
  await page.screenshot({ path: `${shots}/desktop-setup.png`, fullPage: true });
  await page.getByRole('button', { name: 'Commencer la partie' }).last().click();
  await expect(page).toHaveURL(/regles=russian%2Cflying%3D0/);
  await expect(page.locator('.board')).toHaveAttribute('data-rules', 'russian,flying=0');
  await expect(page.getByTestId('regles')).toHaveText('Règles personnalisées');
  await page.screenshot({ path: `${shots}/desktop-custom-8x8.png`, fullPage: true });
  // Rules that do not fit come back with the reason.
  await page.goto('/nouvelle-partie?mode=deux-joueurs&regles=english');
  await page.getByText('Personnaliser les règles').click();
  await page.locator('#regle-rows').fill('4');
  await page.getByRole('button', { name: 'Commencer la partie' }).last().click();
  await expect(page.getByTestId('erreur-reglages')).toContainText('rangées');
});

test('without JavaScript the set-up form still starts a custom game', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/nouvelle-partie?mode=deux-joueurs&regles=russian');
  await page.getByText('Personnaliser les règles').click();
  await page.locator('#regle-repetition').uncheck();
  await page.getByRole('button', { name: 'Commencer la partie' }).last().click();
  await expect(page).toHaveURL(/\/deux-joueurs\?regles=russian%2Crepetition%3D0$/);
  await expect(page.locator('.board')).toHaveAttribute('data-rules', 'russian,repetition=0');
  await context.close();
});

test('a bad address gets the set-up page with a French message', async ({ page }) => {
  const response = await page.goto('/partie-libre?regles=english,kings%3D1');
  expect(response!.status()).toBe(400);
  await expect(page.getByTestId('erreur-reglages')).toContainText('Règle inconnue');
});

test('without JavaScript the 8×8 board shows the right position', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/deux-joueurs?regles=english');
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'B:W21-32:B1-12');
  await expect(page.locator('[data-piece="wm"]')).toHaveCount(12);
  await expect(page.locator('[data-piece="bm"]')).toHaveCount(12);
  await expect(page.locator('[data-square="1"] [data-piece="bm"]')).toHaveCount(1);
  await expect(page.locator('[data-square="32"] [data-piece="wm"]')).toHaveCount(1);
  await context.close();
});

for (const path of ['/nouvelle-partie?mode=ordinateur', '/deux-joueurs?regles=english', '/partie-libre?regles=russian&couleur=noirs']) {
  test(`no accessibility violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await waitForHydration(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  });
}
