import { defineConfig, devices } from '@playwright/test';
import * as os from 'os';
import * as path from 'path';

// Playwright starts the debug server itself on a throw-away database and
// drives Debian's Chromium (never a browser it downloads).
const port = Number(process.env.DAMES_TEST_PORT ?? 3107);
// scripts/test-all.sh names a throw-away folder and removes it afterwards,
// passed or failed.
const dbFile = process.env.DAMES_E2E_DB ?? path.join(os.tmpdir(), `dames-e2e-${process.pid}.sqlite3`);

const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // A click or tap that finds nothing to act on fails here, with its
    // locator named, instead of waiting out a long game's whole timeout.
    actionTimeout: 30_000,
    // Moves are played at once, without their slide: the long games here
    // test the rules and the screens, and went a third slower animated.
    // motion.spec.ts asks for the motion back.
    reducedMotion: 'reduce',
    // The service worker would fetch the whole bundle (every lazy chunk) in the
    // background of every test; offline.spec.ts allows it.
    serviceWorkers: 'block',
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
  webServer: {
    // DAMES_E2E_SERVER=../target/release/dames checks a release build (the
    // tests that need the debug-only test hook then fail by design).
    command: process.env.DAMES_E2E_SERVER ?? '../target/debug/dames',
    cwd: '.',
    url: `http://127.0.0.1:${port}/sante`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      LEPTOS_SITE_ROOT: '../target/site',
      DAMES_DB: dbFile,
      RUST_LOG: 'warn',
      DAMES_TEST_HOOKS: '1',
      // Analyses at a small budget: the tests check the page, not the
      // engine's judgement (the Rust tests do, at the default budget).
      DAMES_ANALYSIS_NODES: '20000',
    },
  },
});
