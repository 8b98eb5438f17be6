/// <reference lib="dom" />
/**
 * The report page in a real browser (Debian's Chromium via playwright-core):
 * the sample run's report loads from file:// without console errors, shows a
 * lane per client process and every anomaly of results.json, zooms to an
 * anomaly when clicked, shows an op's fields on hover, and is screenshotted
 * into test-output/ for a person to look at.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredResults as RunResults } from '../../core/run-files/results-json.js';
import { writeRunIndex } from '../../src/report/write-run-index.js';
import { writeRunReport } from '../../src/report/write-run-report.js';
import { HAS_CHROMIUM, NO_CHROMIUM, openReport, recordingPage, screenshotPath, sharedBrowser, type ReportHooks } from './chromium.js';
import { SAMPLE_MUTEX_RUN_DIR } from '../fixtures/make-sample-run.js';
import { copySampleRun, tempDir } from './temp-run.js';

if (!HAS_CHROMIUM) console.warn(NO_CHROMIUM);

describe.skipIf(!HAS_CHROMIUM)('the report page of the sample run', () => {
  const browser = sharedBrowser();
  let url: string;
  let mutexUrl: string;
  let results: RunResults;
  let clientProcesses: number;

  beforeAll(async () => {
    const dir = copySampleRun();
    url = pathToFileURL(await writeRunReport(dir)).href;
    mutexUrl = pathToFileURL(await writeRunReport(copySampleRun(undefined, 'sample-mutex-run', SAMPLE_MUTEX_RUN_DIR))).href;
    results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const history = readFileSync(join(dir, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { process: number | string });
    clientProcesses = new Set(history.map((op) => op.process).filter((p) => p !== 'nemesis')).size;
  });

  it('loads without console errors, with a lane per client process and every anomaly', async () => {
    const { page, errors } = await openReport(browser(), url);
    expect(errors).toEqual([]);
    expect(await page.locator('.lane-label[data-kind="client"]').count()).toBe(clientProcesses);
    const anomalies = results.checkers.reduce((n, c) => n + (c.anomalies?.length ?? 0), 0);
    expect(await page.locator('.anomaly').count()).toBe(anomalies);
    expect(await page.locator('#run-verdict').textContent()).toBe('INVALID');
    expect(await page.locator('#run-outcome').textContent()).toMatch(/^outcome: UNSAFE; \d+ of \d+ fault windows struck/);
    expect(await page.locator('.checker').count()).toBe(results.checkers.length);
    await page.screenshot({ path: screenshotPath('report-sample.png'), fullPage: true });
    await page.close();
  });

  it('zooms to an anomaly when it is clicked and highlights its ops', async () => {
    const { page, errors } = await openReport(browser(), url);
    const span = async () => {
      const box = page.locator('#timeline');
      return [Number(await box.getAttribute('data-t0')), Number(await box.getAttribute('data-t1'))] as const;
    };
    const [a0, a1] = await span();
    // The lost update witnessed by two writes of one value (the other one spans the whole run, to the final read).
    const losts = results.checkers.flatMap((c) => c.anomalies ?? []).filter((a) => a.kind === 'lost-update');
    const k = losts.findIndex((a) => a.opIndexes!.length > 2);
    const lost = losts[k]!;
    await page.locator('.anomaly[data-kind="lost-update"]').nth(k).click();
    await page.waitForFunction((t0) => Number(document.querySelector('#timeline')!.getAttribute('data-t0')) !== t0, a0);
    const [b0, b1] = await span();
    expect(b1 - b0).toBeLessThan((a1 - a0) / 3);
    expect(b0).toBeLessThanOrEqual(lost.window!.start);
    expect(b1).toBeGreaterThanOrEqual(lost.window!.end);
    // Each op is named by its invocation and its completion: one involved op per pair.
    expect(await page.locator('#involved-ops .involved-op').count()).toBe(lost.opIndexes!.length / 2);
    expect(await page.locator('.anomaly.focused').count()).toBe(1);
    await page.locator('#timeline').screenshot({ path: screenshotPath('report-sample-lost-update.png') });
    expect(errors).toEqual([]);
    await page.close();
    // The mutex run's linearizability witness, drawn Porcupine-style.
    const mutex = await openReport(browser(), mutexUrl);
    await mutex.page.locator('.anomaly[data-kind="not-linearizable"]').click();
    await mutex.page.waitForSelector('.witness');
    await mutex.page.screenshot({ path: screenshotPath('report-sample-witness.png'), fullPage: true });
    expect(mutex.errors).toEqual([]);
    await mutex.page.close();
  });

  it('shows every field of an operation in a tooltip', async () => {
    const { page } = await openReport(browser(), url);
    await page.locator('.anomaly[data-kind="stale-write"]').click();
    const staleWrite = results.checkers.flatMap((c) => c.anomalies ?? []).find((a) => a.kind === 'stale-write')!;
    // Hover the stale write's bar: find it through the page's own scales.
    const point = await page.evaluate((index) => {
      const r = (window as unknown as { fencecheckReport: ReportHooks }).fencecheckReport;
      const { model, view, timeline } = r;
      let p = -1;
      for (let q = 0; q < model.pairs.n; q++) if (model.h.index[model.pairs.done[q]!] === index) p = q;
      const rect = timeline.canvas.getBoundingClientRect();
      const x = rect.left + view.x((model.pairs.start[p]! + model.pairs.end[p]!) / 2);
      const y = rect.top + model.pairs.lane[p]! * 30 - timeline.scrollTop + 10; // 30: the page's LANE_H
      return { x, y };
    }, staleWrite.opIndexes!.at(-1)!);
    await page.mouse.move(point.x, point.y);
    const tip = page.locator('#tooltip');
    await tip.waitFor({ state: 'visible' });
    const text = await tip.textContent();
    expect(text).toContain('write');
    expect(text).toContain('"accepted"');
    expect(text).toContain('token');
    expect(text).toContain(String(staleWrite.opIndexes!.at(-1)));
    await page.screenshot({ path: screenshotPath('report-sample-tooltip.png') });
    await page.close();
  });

  it('lists runs in the index, whose links open their reports', async () => {
    const results = tempDir('fencecheck-results-');
    copySampleRun(results, 'run-a');
    const index = await writeRunIndex(results, { writeReports: true });
    const { page, errors } = await recordingPage(browser(), { width: 1400, height: 400 });
    await page.goto(pathToFileURL(index.path).href);
    expect(await page.locator('tr[data-run]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('index.png') });
    await page.locator('tr[data-run] a').click();
    await page.waitForSelector('#report[data-rendered="true"]');
    expect(errors).toEqual([]);
    await page.close();
  });
});
