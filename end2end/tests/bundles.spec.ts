import { test, expect, Page } from '@playwright/test';
import { fen, waitForHydration } from './helpers';

// Two browser bundles (src/app/bundle.rs): the first, which every page
// loads, lacks the 12×12 board; a page that shows one loads the other,
// from the bundle's douze/ folder.

/** The wasm files the page fetches, by path. */
function wasmFetched(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.wasm')) fetched.push(path);
  });
  return fetched;
}

const twelveBundle = (paths: string[]) => paths.some((p) => /\/douze\/dames\.wasm$/.test(p));
const firstBundle = (paths: string[]) => paths.some((p) => /^\/pkg\/[0-9a-f]+\/dames\.wasm$/.test(p));

test('a 10×10 page loads the first bundle, a 12×12 page the one with its board, and both play', async ({ page }) => {
  const fetched = wasmFetched(page);
  await page.goto('/deux-joueurs');
  await waitForHydration(page);
  expect(firstBundle(fetched)).toBe(true);
  expect(twelveBundle(fetched)).toBe(false);
  // Once: the preload in the head is the very request the loader makes.
  expect(fetched.filter((p) => p.endsWith('/dames.wasm'))).toHaveLength(1);

  fetched.length = 0;
  await page.goto('/deux-joueurs?regles=international,size=12');
  await waitForHydration(page);
  expect(twelveBundle(fetched)).toBe(true);
  await expect(page.locator('.board [data-square]')).toHaveCount(72);
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'W:W43-72:B1-30');
  // The browser's own engine marks the destinations and plays the move.
  await page.locator('[data-square="43"]').click();
  await expect(page.locator('[data-square="37"]')).toHaveClass(/final/);
  await page.locator('[data-square="37"]').click();
  await expect.poll(() => fen(page)).toBe('B:W37,44-72:B1-30');

  // The game's analysis and its replay, 12×12 too.
  await page.getByRole('button', { name: 'Proposer la nulle' }).click();
  await page.getByRole('button', { name: 'Accepter la nulle' }).click();
  await page.getByRole('link', { name: 'Analyser la partie' }).click();
  await page.waitForURL(/\/analyse\/[^/?]+$/);
  await waitForHydration(page);
  await expect(page.locator('.board [data-square]')).toHaveCount(72);
  await page.getByRole('link', { name: "Revoir la partie sans l'analyse" }).click();
  await page.waitForURL(/\/partie\/[^/?]+$/);
  await waitForHydration(page);
  await expect(page.locator('.board [data-square]')).toHaveCount(72);
  const twelveFetches = fetched.filter((p) => p.endsWith('/dames.wasm'));
  expect(twelveFetches.length).toBeGreaterThanOrEqual(3);
  expect(twelveFetches.every((p) => p.includes('/douze/'))).toBe(true);
});

test('the analysis board turned to 12×12 rules, then to a 12×12 game from PDN, goes to the bundle with that board', async ({
  page,
}) => {
  const fetched = wasmFetched(page);
  await page.goto('/analyse');
  await waitForHydration(page);
  expect(twelveBundle(fetched)).toBe(false);
  await page.locator('#regles-texte').fill('international,size=12');
  await page.getByRole('button', { name: 'Appliquer' }).click();
  await page.waitForURL(/\/analyse\?regles=international%2Csize%3D12$/);
  await waitForHydration(page);
  expect(twelveBundle(fetched)).toBe(true);
  await expect(page.locator('.board [data-square]')).toHaveCount(72);
  await page.locator('[data-square="43"]').click();
  await page.locator('[data-square="37"]').click();
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(1);

  // From the first bundle again: a 12×12 game read from PDN keeps its
  // moves on the way.
  fetched.length = 0;
  await page.goto('/analyse');
  await waitForHydration(page);
  expect(twelveBundle(fetched)).toBe(false);
  await page.locator('#pdn-texte').fill('[GameType "20"]\n[Rules "international,size=12"]\n1. 43-37 25-31 *\n');
  await page.getByRole('button', { name: 'Importer' }).click();
  await page.waitForURL(/coups=43-37%2025-31$/);
  await waitForHydration(page);
  expect(twelveBundle(fetched)).toBe(true);
  await expect(page.getByTestId('ligne').locator('li')).toHaveCount(2);
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'W:W43-72:B1-30');
  await page.getByRole('button', { name: 'Fin' }).click();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'W:W37,44-72:B1-24,26-31');
});
