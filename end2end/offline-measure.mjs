// Offline play (#31), measured on a phone emulated at 4× CPU slowdown over
// "Fast 3G" (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up):
// - how long after the first visit's navigation the service worker has
//   kept everything offline play needs, and how much it keeps (the bytes
//   in its cache, and those that crossed the network for it);
// - the computer's reply time in the browser, per level: from the player's
//   move to the reply on the board, on a game kept on the device.
// A measurement, not a test: run it against a release server (`make
// release`, then `node end2end/offline-measure.mjs http://127.0.0.1:3000 5`,
// the number the replies timed per level).
import { chromium } from '@playwright/test';

const site = (process.argv[2] ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const moves = Number(process.argv[3] ?? 5);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  serviceWorkers: 'allow', reducedMotion: 'reduce',
});
// Throttles the page and, once it runs, the service worker.
async function throttle(target) {
  const cdp = await context.newCDPSession(target);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
  });
  if (target.url) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 }).catch(() => {});
  return cdp;
}
const page = await context.newPage();
await throttle(page);
let workerBytes = 0;
context.on('serviceworker', async (worker) => {
  // The worker's own fetches, throttled the same and counted.
  try {
    const cdp = await context.newCDPSession(worker);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
    });
    cdp.on('Network.loadingFinished', (e) => { workerBytes += e.encodedDataLength; });
  } catch (e) {
    console.log(`(the worker's network not throttled: ${e.message})`);
  }
});
const started = Date.now();
await page.goto(`${site}/`, { waitUntil: 'commit' });
await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.ready.then(() => true), null, { timeout: 300_000 });
await page.evaluate(() => navigator.serviceWorker.ready);
const ready = Date.now() - started;
const kept = await page.evaluate(async () => {
  let bytes = 0, files = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
      files += 1;
    }
  }
  return { bytes, files };
});
console.log(`service worker ready ${ready} ms after the first navigation; it keeps ${kept.files} files, ${kept.bytes} bytes (${workerBytes} bytes over the network for them)`);

// Replies per level: games kept on the device (the same code offline).
await page.goto(`${site}/hors-ligne`);
await page.waitForFunction(() => window.__damesHydrated === true);
for (const level of ['debutant', 'intermediaire', 'fort']) {
  await page.getByLabel('Jeu').selectOption('free');
  await page.getByLabel('Niveau').selectOption(level);
  await page.getByRole('button', { name: 'Commencer la partie' }).click();
  await page.locator('.board .sq.movable').first().waitFor();
  const times = [];
  for (let i = 0; i < moves; i++) {
    if (await page.locator('.status.over').count()) break;
    const capture = (await page.locator('.sq.must-capture').count()) > 0;
    await page.locator(capture ? '.sq.must-capture' : '.sq.movable').first().click();
    const target = page.locator('.board .sq.final').first();
    await target.waitFor();
    const plies = await page.evaluate(() => [...document.querySelectorAll('[data-testid="coups"] span:not(.n)')]
      .filter((s) => s.textContent !== '').length);
    // Timed in the page: from the click on the destination to the reply
    // drawn (the move list two plies longer).
    const elapsed = page.evaluate((before) => new Promise((resolve) => {
      const t0 = performance.now();
      const played = () => [...document.querySelectorAll('[data-testid="coups"] span:not(.n)')]
        .filter((s) => s.textContent !== '').length;
      const done = () => played() >= before + 2 || document.querySelector('.status.over');
      const poll = () => (done() ? resolve(performance.now() - t0) : requestAnimationFrame(poll));
      requestAnimationFrame(poll);
    }), plies);
    await target.click();
    times.push(Math.round(await elapsed));
    await page.locator('.board .sq.movable, .status.over').first().waitFor();
  }
  times.sort((a, b) => a - b);
  console.log(`${level}: reply in ${times[Math.floor(times.length / 2)]} ms median, ${times[times.length - 1]} ms max (${times.join(', ')})`);
  await page.getByRole('button', { name: '← Parties de cet appareil' }).click();
}
await browser.close();
