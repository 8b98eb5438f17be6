/// <reference lib="dom" />
/**
 * The report of a real recorded run (test/fixtures/runs/recorded-redis-none:
 * single Redis, no fence, a client paused past its TTL, 15 s, recorded by
 * `fencecheck run` on a machine of this kind), in Debian's Chromium: it loads
 * without console errors, has a lane per client process and every anomaly
 * that the checkers find in that history today, and zooms to a lost update.
 * The results are computed here from the history, so the fixture never
 * drifts from the checkers.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';
import { checkRunDir } from '../../src/check/check-run-dir.js';
import { writeRunReport } from '../../src/report/write-run-report.js';
import { HAS_CHROMIUM, NO_CHROMIUM, openReport, screenshotPath, sharedBrowser } from './chromium.js';
import { tempDir } from './temp-run.js';

const RECORDED = fileURLToPath(new URL('../fixtures/runs/recorded-redis-none/', import.meta.url));

if (!HAS_CHROMIUM) console.warn(NO_CHROMIUM);

describe.skipIf(!HAS_CHROMIUM)('the report of a recorded real run', () => {
  const browser = sharedBrowser();
  let url: string;
  let verdicts: CheckerVerdict[];
  let clientProcesses: number;

  beforeAll(async () => {
    const dir = join(tempDir(), 'recorded');
    cpSync(RECORDED, dir, { recursive: true });
    verdicts = (await checkRunDir(dir)).results.checkers;
    url = pathToFileURL(await writeRunReport(dir)).href;
    const history = readFileSync(join(dir, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { process: number | string });
    clientProcesses = new Set(history.map((op) => op.process).filter((p) => p !== 'nemesis')).size;
  });

  it("finds the paused holder's lost updates, and the page shows them all", async () => {
    expect(verdicts.find((v) => v.checker === 'lost-updates')?.valid).toBe(false);
    const { page, errors } = await openReport(browser(), url);
    expect(errors).toEqual([]);
    expect(await page.locator('.lane-label[data-kind="client"]').count()).toBe(clientProcesses);
    expect(await page.locator('.anomaly').count()).toBe(verdicts.reduce((n, v) => n + v.anomalies.length, 0));
    expect(await page.locator('#run-verdict').textContent()).toBe('INVALID');
    await page.screenshot({ path: screenshotPath('report-recorded-run.png'), fullPage: true });
    await page.close();
  });

  it('zooms to a lost update when it is clicked', async () => {
    const { page, errors } = await openReport(browser(), url);
    const t0 = Number(await page.locator('#timeline').getAttribute('data-t0'));
    const t1 = Number(await page.locator('#timeline').getAttribute('data-t1'));
    await page.locator('.anomaly[data-kind="lost-update"]').nth(1).click();
    await page.waitForFunction((a) => Number(document.querySelector('#timeline')!.getAttribute('data-t1')) !== a, t1);
    const z0 = Number(await page.locator('#timeline').getAttribute('data-t0'));
    const z1 = Number(await page.locator('#timeline').getAttribute('data-t1'));
    expect(z1 - z0).toBeLessThan(t1 - t0);
    expect(await page.locator('.anomaly.focused').count()).toBe(1);
    await page.locator('#timeline').screenshot({ path: screenshotPath('report-recorded-run-zoomed.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
