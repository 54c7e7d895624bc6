// Offline play (#31), measured on a phone emulated at 4× CPU slowdown over
// "Fast 3G" (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up):
// - how long after the first visit's navigation the service worker has
//   kept everything offline play needs, and how much it keeps (the bytes
//   in its cache, and those that crossed the network for it);
// - the computer's reply time in the browser, per level: from the player's
//   move to the reply on the board, on a game kept on the device.
// A measurement, not a test: run it against a release server (`make
// release`, then `node end2end/offline-measure.mjs http://127.0.0.1:3000 5`,
// the number the replies timed per level; CPU_SLOWDOWN=1 for no CPU
// slowdown).
import { chromium } from '@playwright/test';
import http from 'node:http';

const site = (process.argv[2] ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const moves = Number(process.argv[3] ?? 5);
const cpu = Number(process.env.CPU_SLOWDOWN ?? 4);

// "Fast 3G" as a proxy in front of the site, for the page, its workers
// and the service worker alike (the browser's own emulation leaves the
// service worker's fetches out): each request waits 150 ms, and every
// response shares 1.6 Mbit/s.
const bytesPerMs = 1.6e6 / 8 / 1000;
let lineFreeAt = 0;
let overTheNetwork = 0;
const proxy = http.createServer((req, res) => {
  setTimeout(() => {
    const upstream = http.request(`${site}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.on('data', (chunk) => {
        answer.pause();
        overTheNetwork += chunk.length;
        lineFreeAt = Math.max(lineFreeAt, Date.now()) + chunk.length / bytesPerMs;
        setTimeout(() => { res.write(chunk); answer.resume(); }, lineFreeAt - Date.now());
      });
      answer.on('end', () => setTimeout(() => res.end(), Math.max(0, lineFreeAt - Date.now())));
    });
    req.pipe(upstream);
  }, 150);
});
await new Promise((ready) => proxy.listen(0, '127.0.0.1', ready));
const slow = `http://127.0.0.1:${proxy.address().port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({
  viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  serviceWorkers: 'allow', reducedMotion: 'reduce',
});
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
const started = Date.now();
await page.goto(`${slow}/`, { waitUntil: 'commit' });
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
console.log(`service worker ready ${ready} ms after the first navigation; it keeps ${kept.files} files, ${kept.bytes} bytes; ${overTheNetwork} bytes crossed the network, the page's included`);

// Replies per level: games kept on the device (the same code offline).
await page.goto(`${slow}/hors-ligne`);
await page.waitForFunction(() => window.__damesHydrated === true);
for (const level of ['debutant', 'intermediaire', 'fort']) {
  await page.getByLabel('Jeu').selectOption('free');
  await page.getByLabel('Niveau').selectOption(level);
  await page.getByRole('button', { name: 'Commencer la partie' }).click();
  await page.locator('.board .sq.movable').first().waitFor();
  const times = [];
  let frozen = 0;
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
    // And the longest the page went without drawing a frame meanwhile
    // (a search on the page's thread would freeze it for the whole reply).
    const elapsed = page.evaluate((before) => new Promise((resolve) => {
      const t0 = performance.now();
      let last = t0;
      let gap = 0;
      const played = () => [...document.querySelectorAll('[data-testid="coups"] span:not(.n)')]
        .filter((s) => s.textContent !== '').length;
      const done = () => played() >= before + 2 || document.querySelector('.status.over');
      const poll = (now) => {
        gap = Math.max(gap, (now ?? performance.now()) - last);
        last = now ?? performance.now();
        return done() ? resolve([performance.now() - t0, gap]) : requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    }), plies);
    await target.click();
    const [took, gap] = await elapsed;
    times.push(Math.round(took));
    frozen = Math.max(frozen, Math.round(gap));
    await page.locator('.board .sq.movable, .status.over').first().waitFor();
  }
  times.sort((a, b) => a - b);
  console.log(`${level}: reply in ${times[Math.floor(times.length / 2)]} ms median, ${times[times.length - 1]} ms max (${times.join(', ')}); the longest frame meanwhile ${frozen} ms`);
  await page.getByRole('button', { name: '← Parties de cet appareil' }).click();
}
await browser.close();
proxy.close();
