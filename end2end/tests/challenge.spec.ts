import { test, expect } from '@playwright/test';
import { playSomeMove, startTestGame, waitForHydration } from './helpers';

const shots = 'test-results/screenshots';

test('win, choose a pseudonym, find yourself ranked, replay the proof', async ({ page }) => {
  // A position won in one move (test hook, debug builds only): the king
  // on 47 takes the last three black pieces.
  await startTestGame(page, 'W:WK47,40:B9,12,33', 'Intermediaire', 'Daily', 7);
  await page.goto('/');
  await waitForHydration(page);
  await expect(page.locator('[data-testid="compte-a-rebours"]')).toContainText('Prochain défi dans');
  await page.locator('[data-square="47"]').click();
  await page.locator('[data-square="26"]').click();
  await expect(page.locator('.status.over')).toContainText('gagné');

  // The seconds are the browser's thinking time from hydration to the
  // click: 0 on a quiet machine, more on a loaded one. The breakdown must
  // add up whatever they are, and stay within what this test can take.
  const score = page.locator('.win');
  await expect(score).toContainText('3000 + 2 pièces × 300 − ');
  const breakdown = (await score.textContent()) ?? '';
  const parts = breakdown.match(/3000 \+ 2 pièces × 300 − (\d+) s = (\d+)/);
  expect(parts, breakdown).not.toBeNull();
  const seconds = Number(parts![1]);
  const points = String(3600 - seconds);
  expect(seconds).toBeLessThan(30);
  expect(parts![2]).toBe(points);
  await expect(page.locator('[data-testid="rang"]')).toContainText("Votre rang aujourd'hui : 1");

  // A pseudonym with markup is refused, with a French reason.
  const name = page.locator('#pseudonyme');
  await name.fill('<b>moi</b>');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.locator('.pseudo .error')).toContainText('Pseudonyme refusé');
  const pseudonym = `Éloïse ${Date.now() % 100000}`;
  await name.fill(pseudonym);
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByRole('status')).toContainText(pseudonym);
  await page.screenshot({ path: `${shots}/win.png`, fullPage: true });

  await page.goto('/classement');
  const mine = page.locator('tr.me');
  await expect(mine).toContainText(pseudonym);
  await expect(mine).toContainText(points);
  await page.screenshot({ path: `${shots}/leaderboard.png`, fullPage: true });

  await mine.getByRole('link', { name: 'Voir la partie' }).click();
  await expect(page).toHaveURL(/\/partie\//);
  await waitForHydration(page);
  await expect(page.locator('[data-testid="score"]')).toContainText(points);
  await page.getByRole('button', { name: 'Début' }).click();
  await expect(page.locator('[data-testid="coup-affiche"]')).toHaveText('Position de départ');
  await expect(page.locator('.board')).toHaveAttribute('data-fen', 'W:W40,K47:B9,12,33');
  await page.getByRole('button', { name: 'Coup suivant' }).click();
  await expect(page.locator('[data-testid="coup-affiche"]')).toHaveText('Coup 1 sur 1');
  await expect(page.locator('[data-piece="bm"]')).toHaveCount(0);
});

test('forged requests are refused with their status and change nothing', async ({ page }) => {
  await page.goto('/');
  await waitForHydration(page);
  // Looking stores nothing: the game has no id until the first move.
  await expect(page.locator('[data-partie]')).toHaveAttribute('data-partie', '');
  await playSomeMove(page);
  await expect(page.locator('[data-testid="coups"] li span').nth(2)).not.toHaveText('');
  const before = await page.locator('.board').getAttribute('data-fen');
  const id = (await page.locator('[data-partie]').getAttribute('data-partie'))!;
  expect(id).not.toBe('');
  const refusals: [string, Record<string, string>, number, string][] = [
    ['/api/partie/jouer', { game_id: 'nope', ply: '2', mv: '32-28', think_ms: '1000' }, 404, 'GameNotFound'],
    ['/api/partie/jouer', { game_id: id, ply: '2', mv: '31-22', think_ms: '1000' }, 422, 'IllegalMove'],
    // A move sent for another ply (a stale tab, a replayed request).
    ['/api/partie/jouer', { game_id: id, ply: '4', mv: '31-27', think_ms: '1000' }, 409, 'Conflict'],
    ['/api/partie/jouer', { game_id: id, ply: 'x', mv: '31-27', think_ms: '-5' }, 400, 'BadRequest'],
    ['/api/partie/jouer', { game_id: id, ply: '2' }, 400, 'BadRequest'],
    ['/api/joueur/pseudonyme', { name: 'x'.repeat(5000) }, 422, 'BadPseudonym'],
  ];
  for (const [url, form, status, variant] of refusals) {
    const answer = await page.request.post(url, { form });
    expect(answer.status(), `${variant}: ${await answer.text()}`).toBe(status);
    expect(await answer.text()).toContain(variant);
  }
  await page.reload();
  await expect(page.locator('.board')).toHaveAttribute('data-fen', before!);
});
