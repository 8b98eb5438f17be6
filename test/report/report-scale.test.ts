/// <reference lib="dom" />
/**
 * Scale: a generated 100,000-op history (every fault kind) makes a report
 * under 10 MB that headless Chromium draws, zoomed out showing the decimated
 * view and saying so, and showing single ops once zoomed in.
 *
 * How fast it draws is printed, not asserted: a time limit in `npm test`
 * fails on a loaded machine and proves nothing on an idle one. The 3 s
 * budget is checked by the benchmark, `npm run bench:report`, which runs this
 * file with FC_REPORT_BUDGET_MS=3000 (set it to any budget).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRunReport } from '../../src/report/write-run-report.js';
import { writeLargeRun } from '../fixtures/make-large-run.js';
import { HAS_CHROMIUM, NO_CHROMIUM, openReport, screenshotPath, sharedBrowser } from './chromium.js';
import { tempDir } from './temp-run.js';

const OPS = 100_000;
const BUDGET_MS = process.env['FC_REPORT_BUDGET_MS'] === undefined ? undefined : Number(process.env['FC_REPORT_BUDGET_MS']);
const MAX_BYTES = 10 * 1024 * 1024;

describe('a 100,000-op run', () => {
  let report: string;
  let writeMs: number;
  beforeAll(async () => {
    const dir = join(tempDir(), 'large-run');
    await writeLargeRun(dir, OPS);
    const started = performance.now();
    report = await writeRunReport(dir);
    writeMs = performance.now() - started;
  }, 60_000);

  it('makes a report under 10 MB', () => {
    const bytes = statSync(report).size;
    console.log(`[report-scale] ${OPS} ops: report.html ${(bytes / 1024 / 1024).toFixed(2)} MB, written in ${Math.round(writeMs)} ms`);
    expect(bytes).toBeLessThan(MAX_BYTES);
  });

  describe.skipIf(!HAS_CHROMIUM)('in the browser', () => {
    const browser = sharedBrowser();

    it(`renders${BUDGET_MS === undefined ? '' : ` within ${BUDGET_MS} ms`}, decimated and saying so`, async () => {
      const { page, errors, ms: elapsed } = await openReport(browser(), pathToFileURL(report).href);
      const inPage = Number(await page.locator('#report').getAttribute('data-render-ms'));
      console.log(`[report-scale] loaded and drawn in ${Math.round(elapsed)} ms (page script ${inPage} ms)`);
      if (BUDGET_MS !== undefined) expect(elapsed).toBeLessThan(BUDGET_MS);
      expect(errors).toEqual([]);
      expect(await page.locator('#timeline').getAttribute('data-mode')).toBe('decimated');
      expect(await page.locator('#timeline-notice').textContent()).toContain('Decimated view');
      await page.screenshot({ path: screenshotPath('report-100k.png'), fullPage: true });

      // Zoom and pan stay responsive: a few wheel steps, each drawn in a frame.
      // The anomaly cards above it may push the timeline below the fold: the wheel must land on it.
      await page.locator('canvas.tl-canvas').scrollIntoViewIfNeeded();
      const canvas = (await page.locator('canvas.tl-canvas').boundingBox())!;
      await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + 40);
      const zoomStarted = performance.now();
      for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -500);
      await page.waitForFunction(() => document.querySelector('#timeline')!.getAttribute('data-mode') === 'detail', undefined, { timeout: 10_000 });
      console.log(`[report-scale] zoomed in to single ops in ${Math.round(performance.now() - zoomStarted)} ms`);
      expect(await page.locator('#timeline-notice').isHidden()).toBe(true);
      await page.locator('#timeline').screenshot({ path: screenshotPath('report-100k-zoomed.png') });
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});

if (!HAS_CHROMIUM) console.warn(NO_CHROMIUM);
