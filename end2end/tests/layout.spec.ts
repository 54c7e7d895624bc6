// The board first: on every page with a board, at phone, tablet and desktop
// sizes, the whole board and what a player needs during play (whose turn,
// the electronic board's display) are on the first screen, with no
// scrolling. Screenshots of each pair go to test-results/layout/, and of
// every page in the high-contrast palette, phone and desktop.
import { test, expect, Page } from '@playwright/test';
import { playSomeMove, waitForHydration } from './helpers';

const viewports = [
  { width: 360, height: 640, touch: true },
  { width: 390, height: 844, touch: true },
  { width: 768, height: 1024, touch: true },
  { width: 1366, height: 768, touch: false },
  { width: 1920, height: 1080, touch: false },
];

const boardPages: [string, string, string][] = [
  ['daily', '/', '.status'],
  ['free', '/partie-libre', '.status'],
  ['two-players-english', '/deux-joueurs?regles=english', '.status'],
  ['free-russian-black', '/partie-libre?regles=russian&couleur=noirs', '.status'],
  ['electronic', '/dames-electroniques', '.lcd'],
];

/** The selectors among `selectors` whose element is not wholly inside the
 * viewport, each with its box. */
async function outside(page: Page, selectors: string): Promise<string[]> {
  return page.evaluate((selectors) => {
    const out: string[] = [];
    for (const e of Array.from(document.querySelectorAll(selectors))) {
      const r = e.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
        out.push(`${e.getAttribute('data-square') ?? e.className} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
      }
    }
    return out;
  }, selectors);
}

test('every board page shows the whole board on the first screen, at every size', async ({ browser }) => {
  const failures: string[] = [];
  for (const { width, height, touch } of viewports) {
    const context = await browser.newContext({ viewport: { width, height }, hasTouch: touch, isMobile: touch });
    const page = await context.newPage();
    // A game to replay (a player sees their own unfinished games only): one
    // move of a Brazilian 1 vs 1 game, which leaves the English 1 vs 1
    // page below as a new player finds it.
    const replay = async () => {
      await page.goto('/deux-joueurs?regles=brazilian');
      await waitForHydration(page);
      await playSomeMove(page, touch);
      await expect(page.locator('section.play')).toHaveAttribute('data-partie', /.+/);
      return `/partie/${await page.locator('section.play').getAttribute('data-partie')}`;
    };
    const pages = [...boardPages, ['replay', await replay(), '.status'] as [string, string, string]];
    for (const [name, path, needed] of pages) {
      await page.goto(path);
      await waitForHydration(page);
      const squares = await page.locator('[data-square]').count();
      expect(squares, `${path} has a board`).toBeGreaterThanOrEqual(32);
      expect(await page.evaluate(() => window.scrollY), `${path} opens at the top`).toBe(0);
      for (const missing of await outside(page, `[data-square], ${needed}`)) {
        failures.push(`${width}×${height} ${path}: ${missing}`);
      }
      await page.screenshot({ path: `test-results/layout/${name}-${width}x${height}.png` });
    }
    await context.close();
  }
  expect(failures, 'every square and the status on the first screen').toEqual([]);
});

test('the high-contrast palette keeps every board on the first screen, phone and desktop', async ({ browser, baseURL }) => {
  const failures: string[] = [];
  for (const { width, height, touch } of [viewports[1], viewports[3]]) {
    const context = await browser.newContext({ viewport: { width, height }, hasTouch: touch, isMobile: touch });
    await context.addCookies([{ name: 'dames_reglages', value: 'palette=contraste&numeros=1', url: baseURL! }]);
    const page = await context.newPage();
    const pages: [string, string][] = [
      ...boardPages.map(([name, path]) => [name, path] as [string, string]),
      ['settings', '/reglages'],
      ['rules', '/regles'],
      ['leaderboard', '/classement'],
    ];
    for (const [name, path] of pages) {
      await page.goto(path);
      await expect(page.locator('body')).toHaveAttribute('data-palette', 'contraste');
      if (await page.locator('.board').count()) {
        await waitForHydration(page);
        for (const missing of await outside(page, '[data-square]')) failures.push(`${width}×${height} ${path}: ${missing}`);
        // A selected man and its destinations, as a player sees them.
        const movable = page.locator('.sq.movable').first();
        if (await movable.count()) await movable.click();
      }
      await page.screenshot({ path: `test-results/layout/contrast-${name}-${width}x${height}.png` });
    }
    await context.close();
  }
  expect(failures).toEqual([]);
});
