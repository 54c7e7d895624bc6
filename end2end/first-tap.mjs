// Time to the first tap (#30): on a phone emulated at 4× CPU slowdown over
// "Fast 3G" (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), cold loads
// of a page, and for each the time from navigation until a tap on a man
// marks its destinations (the man tapped every 25 ms until they show).
// Also the bytes of wasm the page fetched. A measurement, not a test: run
// it against a release server (`make release`, then
// `node end2end/first-tap.mjs http://127.0.0.1:3000/ 3`).
import { chromium } from '@playwright/test';

const url = process.argv[2] ?? 'http://127.0.0.1:3000/';
const runs = Number(process.argv[3] ?? 3);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

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

  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  const man = page.locator('.board .sq.movable').first();
  await man.waitFor({ state: 'visible', timeout: 60_000 });
  const box = await man.boundingBox();
  let marked = 0;
  while (Date.now() - started < 60_000) {
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    if (await page.locator('.board .sq.final, .board .sq.step').count()) {
      marked = Date.now() - started;
      break;
    }
    await page.waitForTimeout(25);
  }
  const painted = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0);
  await context.close();
  return { marked, painted: Math.round(painted), wasmBytes };
}

const results = [];
for (let i = 0; i < runs; i++) {
  const result = await coldLoad();
  results.push(result);
  console.log(`run ${i + 1}: destinations marked at ${result.marked} ms, first paint ${result.painted} ms, wasm ${result.wasmBytes} bytes over the wire`);
}
await browser.close();
const sorted = results.map((r) => r.marked).sort((a, b) => a - b);
console.log(`median: ${sorted[Math.floor(sorted.length / 2)]} ms (${sorted.join(', ')}) for ${url}`);
