// Time to the first tap (#30): on a phone emulated at 4× CPU slowdown over
// "Fast 3G" (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), cold loads
// of a page, and for each the time from navigation until a tap on a man
// marks its destinations (the man tapped every 25 ms until they show; the
// moment is read in the page, from its navigation start).
// Also the bytes of wasm the page fetched. A measurement, not a test: run
// it against a release server (`make release`, then
// `node end2end/first-tap.mjs http://127.0.0.1:3000/ 3`; with
// WITHOUT_FIRST_TAPS=1, taps wait for the wasm as before the page's
// first-taps script).
import { chromium } from '@playwright/test';

const url = process.argv[2] ?? 'http://127.0.0.1:3000/';
const runs = Number(process.argv[3] ?? 3);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** Where the first movable man is drawn, from a load with no throttling. */
async function manBox() {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(url);
  const box = await page.locator('.board .sq.movable').first().boundingBox();
  await context.close();
  return box;
}
const box = await manBox();

async function coldLoad() {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let wasmBytes = 0;
  cdp.on('Network.loadingFinished', (event) => { wasmBytes += wasmRequests.has(event.requestId) ? event.encodedDataLength : 0; });
  const wasmRequests = new Set();
  cdp.on('Network.responseReceived', (event) => {
    if (event.response.url.endsWith('.wasm')) wasmRequests.add(event.requestId);
  });

  // The moment the destinations are marked, read in the page itself (from
  // navigation start), so that the harness's own round trips do not count.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.__markedAt && document.querySelector('.board .sq.final, .board .sq.step')) {
        window.__markedAt = performance.now();
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  if (process.env.WITHOUT_FIRST_TAPS) {
    // The page as it was before its first-taps script: taps wait for the
    // wasm (the script finds its list taken and stands aside).
    await page.addInitScript(() => Object.defineProperty(window, '__damesEarlyTaps', { value: null, writable: false }));
  }
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  // A player's finger waiting over the man: taps from the start, at the
  // place the man is drawn (found by an unthrottled load first), rather
  // than the harness's own waits for the page deciding when.
  let marked = 0;
  let hydrated = 0;
  while (Date.now() - started < 60_000) {
    if (!hydrated && await page.evaluate(() => window.__damesHydrated === true)) hydrated = Date.now() - started;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    if (await page.locator('.board .sq.final, .board .sq.step').count()) {
      marked = Date.now() - started;
      break;
    }
    await page.waitForTimeout(25);
  }
  const markedAt = await page.evaluate(() => window.__markedAt ?? 0);
  if (markedAt) marked = Math.round(markedAt);
  const painted = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0);
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource')
    .map((r) => `${r.name.split('/').pop()} ${Math.round(r.startTime)}–${Math.round(r.responseEnd)}`).join(', '));
  await context.close();
  return { marked, hydrated, painted: Math.round(painted), wasmBytes, loaded };
}

const results = [];
for (let i = 0; i < runs; i++) {
  const result = await coldLoad();
  results.push(result);
  console.log(`run ${i + 1}: destinations marked at ${result.marked} ms (hydrated by ${result.hydrated} ms), first paint ${result.painted} ms, wasm ${result.wasmBytes} bytes over the wire`);
  if (process.env.VERBOSE) console.log(`  fetched: ${result.loaded}`);
}
await browser.close();
const sorted = results.map((r) => r.marked).sort((a, b) => a - b);
console.log(`median: ${sorted[Math.floor(sorted.length / 2)]} ms (${sorted.join(', ')}) for ${url}`);
