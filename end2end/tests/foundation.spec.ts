import { test, expect } from '@playwright/test';

// The page is served with the real position, hydrates (a click selects a
// piece: only the wasm can do that) and a server function round-trips (the
// move comes back with the computer's answer).
test('served, hydrated, and the server answers a move', async ({ page }) => {
  await page.goto('/');
  const board = page.locator('.board');
  await expect(board).toHaveAttribute('data-fen', 'W:W31-50:B1-20');
  await expect(page.locator('[data-piece="wm"]')).toHaveCount(20);

  const from = page.locator('[data-square="32"]');
  await expect(async () => {
    await from.click();
    await expect(from).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });

  await page.locator('[data-square="28"]').click();
  await expect(page.locator('[data-testid="coups"] li')).toHaveCount(1);
  await expect(page.locator('[data-testid="coups"] li span').nth(2)).not.toHaveText('', { timeout: 15_000 });
  await expect(board).not.toHaveAttribute('data-fen', 'W:W31-50:B1-20');
});

test('health endpoint and a real 404 page', async ({ request, page }) => {
  const health = await request.get('/sante');
  expect(health.status()).toBe(200);
  expect(await health.text()).toContain('ok');

  const response = await page.goto('/nulle-part');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page introuvable' })).toBeVisible();
});

test('HTML is compressed and the bundle is cached for long', async ({ request }) => {
  const page = await request.get('/', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(['gzip', 'br']).toContain(page.headers()['content-encoding']);
  const html = await page.text();
  const css = html.match(/href="(\/pkg\/[0-9a-f]{12}\/dames\.css)"/);
  expect(css).not.toBeNull();
  const asset = await request.get(css![1]);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toContain('immutable');
});
