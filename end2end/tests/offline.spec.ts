import { test, expect, Page, BrowserContext } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { fen, playSomeMove, startTestGame, waitForHydration } from './helpers';

// Offline play: after one visit online, the service worker serves the
// site without a network, and the games against the computer, between two
// players and on the electronic board are played and kept on the device.
const shots = 'test-results/screenshots';

test.use({ serviceWorkers: 'allow' });

/** The first visit: the page, then the service worker installed with
 * everything offline play needs, and in control of the page. */
async function visitOnline(page: Page) {
  await page.goto('/');
  await waitForHydration(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** A new game on the device, from the offline page's form. */
async function newDeviceGame(page: Page, game: string, options: { rules?: string; level?: string; color?: string }) {
  await page.getByLabel('Jeu').selectOption(game);
  if (options.rules) await page.getByLabel('Règles').selectOption(options.rules);
  if (options.level) await page.getByLabel('Niveau').selectOption(options.level);
  if (options.color) await page.getByLabel('Je joue les').selectOption(options.color);
  await page.getByRole('button', { name: 'Commencer la partie' }).click();
  await expect(page.locator('.board')).toBeVisible();
}

/** Reloads (offline: the service worker's page) and resumes the latest game. */
async function reloadAndResume(page: Page, position: string) {
  await page.reload();
  await waitForDeviceList(page);
  await page.getByTestId('parties-appareil').getByRole('button', { name: 'Reprendre' }).first().click();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', position);
}

async function waitForDeviceList(page: Page) {
  await expect(page.getByTestId('hors-ligne')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Parties de cet appareil' })).toBeVisible();
  await expect(page.getByText('Lecture des parties…')).toHaveCount(0);
}

async function playToTheEnd(page: Page, maxMoves = 300) {
  for (let i = 0; i < maxMoves; i++) {
    await expect(page.locator('.sq.movable, .status.over').first()).toBeVisible();
    if ((await page.locator('.status.over').count()) > 0) return;
    await playSomeMove(page, true);
  }
  await expect(page.locator('.status.over')).toBeVisible();
}

/** Cuts the network: the open page says so, and the site, opened again,
 * is the offline page. */
async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  if (!page.url().endsWith('/hors-ligne')) await expect(page.locator('#sans-connexion')).toBeVisible();
  await page.goto('/');
  await waitForDeviceList(page);
}

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  test('offline: English against the computer, Russian 1 vs 1 and the electronic board, resumed after reloads; then online again', async ({ page, context }) => {
    test.setTimeout(600_000);
    await visitOnline(page);
    await goOffline(context, page);
    await page.screenshot({ path: `${shots}/offline-phone-empty.png`, fullPage: true });

    // English draughts against the computer, as White: a few moves, a
    // reload, then to the end.
    await newDeviceGame(page, 'free', { rules: 'english', level: 'intermediaire', color: 'blancs' });
    await expect(page.locator('.board')).toHaveAttribute('data-rules', 'english');
    // The whole board on the first screen, as on every game page.
    for (const square of await page.locator('[data-square]').all()) {
      const box = (await square.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(844);
    }
    await page.screenshot({ path: `${shots}/offline-phone-game.png` });
    for (let i = 0; i < 3; i++) {
      await playSomeMove(page, true);
      await expect(page.locator('.sq.movable, .status.over').first()).toBeVisible();
    }
    // The computer searched in the offline games' worker, off the page.
    expect(page.workers().map((w) => new URL(w.url()).pathname)).toContain('/appareil.js');
    await reloadAndResume(page, await fen(page));
    await playToTheEnd(page);
    await expect(page.locator('.status.over')).toContainText(/gagné|perdu|nulle/i);
    // The finished game, exported as PDN.
    await page.getByText('La partie en PDN').tap();
    await expect(page.getByLabel('La partie en PDN')).toHaveValue(/\[GameType "21/);
    await expect(page.getByRole('link', { name: 'Télécharger le PDN' })).toHaveAttribute('download', 'partie-dames.pdn');
    await page.getByRole('button', { name: '← Parties de cet appareil' }).click();

    // Russian draughts between two players: moves, a reload, then a draw
    // offered and agreed.
    await newDeviceGame(page, 'two_players', { rules: 'russian' });
    await expect(page.locator('.board')).toHaveAttribute('data-rules', 'russian');
    for (let i = 0; i < 4; i++) await playSomeMove(page, true);
    await reloadAndResume(page, await fen(page));
    await page.getByRole('button', { name: 'Proposer la nulle' }).tap();
    await page.getByRole('button', { name: 'Accepter la nulle' }).tap();
    await expect(page.locator('.status.over')).toContainText('nulle');
    await page.getByRole('button', { name: '← Parties de cet appareil' }).click();

    // The electronic board: moves, a take-back, a hint, a reload.
    await newDeviceGame(page, 'electronic', { level: '1' });
    for (let i = 0; i < 2; i++) {
      await playSomeMove(page, true);
      await expect(page.getByTestId('lcd-coup')).not.toHaveText('--');
    }
    const before = await fen(page);
    await page.getByRole('button', { name: 'Reprendre' }).tap();
    await expect(page.getByTestId('annonce')).toHaveText('Coup repris.');
    expect(await fen(page)).not.toBe(before);
    await page.getByRole('button', { name: 'Conseil' }).tap();
    await expect(page.getByTestId('lcd-conseil')).toContainText('Conseil ');
    await expect(page.locator('.sq.hint')).not.toHaveCount(0);
    await reloadAndResume(page, await fen(page));
    await playSomeMove(page, true);
    await page.getByRole('button', { name: '← Parties de cet appareil' }).click();

    // Three games kept, listed.
    await expect(page.getByTestId('parties-appareil').locator('li')).toHaveCount(3);
    await page.screenshot({ path: `${shots}/offline-phone-list.png`, fullPage: true });
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    // Online again: the daily challenge answers from the server.
    await context.setOffline(false);
    await page.goto('/');
    await waitForHydration(page);
    await expect(page.locator('#sans-connexion')).toBeHidden();
    const start = await fen(page);
    const answered = page.waitForResponse((r) => r.url().includes('/api/partie/commencer') && r.status() === 200);
    await playSomeMove(page, true);
    await answered;
    await expect.poll(() => fen(page)).not.toBe(start);
  });
});

test('the same moves get the same replies offline and online, at each level', async ({ page, context }) => {
  test.setTimeout(300_000);
  await visitOnline(page);
  for (const level of ['debutant', 'intermediaire', 'fort']) {
    // Offline: a game on the device; its seed is read from the device's store.
    await goOffline(context, page);
    if (level === 'debutant') await page.screenshot({ path: `${shots}/offline-desktop.png`, fullPage: true });
    await newDeviceGame(page, 'free', { rules: 'international', level, color: 'blancs' });
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) {
      await playSomeMove(page);
      await expect(page.locator('.sq.movable').first()).toBeVisible();
    }
    // The seed as written: a u64 does not fit a JavaScript number.
    const [record, seed] = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('dames.appareil.'))!;
      const text = localStorage.getItem(key)!;
      localStorage.removeItem(key);
      return [JSON.parse(text), /"seed":(\d+)/.exec(text)![1]];
    });
    expect(record.moves).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) mine.push(record.moves[i]);
    // Online: the server's game with the same seed, level and moves.
    await context.setOffline(false);
    const start = 'W:W31-50:B1-20';
    await startTestGame(page, start, level[0].toUpperCase() + level.slice(1), 'Free', seed, 'international');
    const server: string[] = [];
    let id = '';
    for (let i = 0; i < mine.length; i++) {
      await page.goto('/partie-libre');
      id = id || (await page.locator('[data-partie]').getAttribute('data-partie'))!;
      const response = await page.request.post('/api/partie/jouer', {
        form: { game_id: id, ply: String(2 * i), mv: mine[i], think_ms: '500' },
      });
      expect(response.status(), await response.text()).toBe(200);
      const view = JSON.parse(await response.text());
      server.push(view.moves[2 * i + 1]);
    }
    expect(server, `replies at ${level}`).toEqual([record.moves[1], record.moves[3], record.moves[5]]);
  }
});

test('installable: the manifest, its icons, and a worker in control of the page', async ({ page, request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest.name).toBe('Dames');
  expect(manifest.lang).toBe('fr');
  expect(manifest.display).toBe('standalone');
  expect(manifest.start_url).toBe('/');
  const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes);
  expect(sizes).toContain('192x192');
  expect(sizes).toContain('512x512');
  for (const icon of manifest.icons) {
    const response = await request.get(icon.src);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()['content-type']).toContain(icon.type);
  }
  const worker = await request.get('/sw.js');
  expect(worker.headers()['content-type']).toContain('javascript');
  expect(worker.headers()['cache-control']).toBe('no-cache');
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await visitOnline(page);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
});
