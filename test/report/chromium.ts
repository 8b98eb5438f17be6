/// <reference lib="dom" />
/**
 * Debian's Chromium for the report's browser tests, driven by playwright-core
 * (no browser download). The flags keep a headless Chromium quiet on a closed
 * network: without the background-networking ones it keeps dialling out and
 * its connections are refused. Tests skip, saying why, where it is missing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);
export const NO_CHROMIUM = `${CHROMIUM_PATH} is missing: skipping the report's browser tests (install Debian's chromium: apt-get install -y chromium, as \`npm run setup\` does)`;

/** Where screenshots go: test-output/ at the repository root (git-ignored). */
export const TEST_OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** One Chromium for the tests of the enclosing describe: launched before them, closed after. */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}

/** A report in a new recording page, after its first draw; `ms` is how long loading and drawing took. */
export async function openReport(
  browser: Browser,
  url: string,
  viewport?: { width: number; height: number },
): Promise<{ page: Page; errors: string[]; ms: number }> {
  const { page, errors } = await recordingPage(browser, viewport);
  const started = performance.now();
  await page.goto(url);
  await page.waitForSelector('#report[data-rendered="true"]', { timeout: 20_000 });
  return { page, errors, ms: performance.now() - started };
}

/** A page that records console errors and uncaught exceptions. */
export async function recordingPage(browser: Browser, viewport = { width: 1400, height: 1000 }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  return { page, errors };
}

/** What the page exposes as `window.fencecheckReport`, as far as tests read it. */
export interface ReportHooks {
  model: {
    pairs: { n: number; start: Float64Array; end: Float64Array; done: Int32Array; lane: Int32Array };
    h: { index: Float64Array };
  };
  view: { x: (t: number) => number };
  timeline: { canvas: HTMLCanvasElement; scrollTop: number };
}

export function screenshotPath(name: string): string {
  mkdirSync(TEST_OUTPUT, { recursive: true });
  return `${TEST_OUTPUT}${name}`;
}
