/// <reference lib="dom" />
/**
 * A shrunk run's report opens on its story (src/report/story.ts, page/story.js):
 * the story's lines (who held which token when, who was paused, what the
 * resource did with the stale access) and, under them, the timeline zoomed to
 * the anomaly that tells it, all in the first 1400×1000 view; the same run's
 * report without the shrunk marker opens as before. Screenshot in
 * test-output/report-story.png.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readRunDir } from '../../src/report/read-run-dir.js';
import { buildReportData } from '../../src/report/report-data.js';
import { writeRunReport } from '../../src/report/write-run-report.js';
import { SHRUNK_FILE } from '../../runtime/store/write-run-files.js';
import { HAS_CHROMIUM, NO_CHROMIUM, openReport, screenshotPath, sharedBrowser } from './chromium.js';
import { SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';
import { copySampleRun } from './temp-run.js';

describe('the story of a failing run', () => {
  it('tells the data anomaly first, with the holds, faults and accesses it names', async () => {
    const data = buildReportData(await readRunDir(SAMPLE_RUN_DIR), 'test', undefined, { story: true });
    const story = data.story!;
    const flat = data.results!.checkers.flatMap((c) => c.anomalies ?? []);
    // The sample run has a stale write, lost updates and double holds: the stale write tells it.
    expect(flat[story.anomaly]!.kind).toBe('stale-write');
    expect(story.lines[0]).toBe(`stale-write: ${flat[story.anomaly]!.message}`);
    expect(story.lines.some((l) => /^p\d+ held the lock with token \d+ from \d+\.\d{3} s to \d+\.\d{3} s/.test(l))).toBe(true);
    expect(story.lines.some((l) => /^pause \(/.test(l))).toBe(true);
    expect(story.lines.some((l) => /^p\d+'s write of \d+ under token \d+ at \d+\.\d{3} s: accepted by the resource$/.test(l))).toBe(true);
    expect(buildReportData(await readRunDir(SAMPLE_RUN_DIR), 'test').story).toBeUndefined();
  });

  it("begins with the shrink's summary and its reproduction rate when the run was shrunk", async () => {
    const summary = 'shrunk to 1 fault event, 2 clients, 2 s; reproduced 2/2 (95% CI 34–100%)';
    const plain = buildReportData(await readRunDir(SAMPLE_RUN_DIR), 'test', undefined, { story: true }).story!;
    const shrunk = buildReportData(await readRunDir(SAMPLE_RUN_DIR), 'test', undefined, { story: true, shrunkSummary: summary }).story!;
    expect(shrunk.lines).toEqual([summary, ...plain.lines]);
    expect(shrunk.anomaly).toBe(plain.anomaly);
  });

  it('reads the summary from shrunk.json through the store, and refuses one without it (254)', async () => {
    const dir = copySampleRun(undefined, 'shrunk-summary');
    writeFileSync(join(dir, SHRUNK_FILE), JSON.stringify({ summary: 'shrunk to 1 fault event, 3 clients, 5 s; reproduced 4/4 (95% CI 51–100%)' }));
    await writeRunReport(dir);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('reproduced 4/4 (95% CI 51–100%)');
    writeFileSync(join(dir, SHRUNK_FILE), JSON.stringify({ from: 'x' }));
    await expect(writeRunReport(dir)).rejects.toMatchObject({ exitCode: 254, message: expect.stringMatching(/shrunk\.json.*summary/) });
  });
});

if (!HAS_CHROMIUM) console.warn(NO_CHROMIUM);

describe.skipIf(!HAS_CHROMIUM)("a shrunk run's report in a browser", () => {
  const browser = sharedBrowser();
  let storyUrl: string;
  let plainUrl: string;

  beforeAll(async () => {
    const shrunk = copySampleRun(undefined, 'shrunk-run');
    writeFileSync(join(shrunk, SHRUNK_FILE), JSON.stringify({ summary: 'shrunk to 1 fault event, 3 clients, 5 s; reproduced 4/4' }));
    storyUrl = pathToFileURL(await writeRunReport(shrunk)).href;
    plainUrl = pathToFileURL(await writeRunReport(copySampleRun(undefined, 'plain-run'))).href;
  });

  it('opens on the story: its lines and the focused timeline in the first view', async () => {
    // A laptop's first screen.
    const { page, errors } = await openReport(browser(), storyUrl, { width: 1280, height: 800 });
    expect(errors).toEqual([]);
    expect(await page.locator('#story').isVisible()).toBe(true);
    expect(await page.locator('#story .story-lines li').count()).toBeGreaterThanOrEqual(3);
    // The timeline follows the story, both before the checkers' cards and the anomaly cards, and it is focused on the story's anomaly.
    expect(await page.evaluate(() => document.getElementById('story')!.nextElementSibling?.id)).toBe('timeline-section');
    const before = (a: string, b: string) =>
      page.evaluate(
        ([x, y]) => Boolean(document.getElementById(x!)!.compareDocumentPosition(document.getElementById(y!)!) & Node.DOCUMENT_POSITION_FOLLOWING),
        [a, b],
      );
    expect(await before('timeline-section', 'checkers')).toBe(true);
    expect(await before('timeline-section', 'anomalies')).toBe(true);
    expect(await page.locator('.anomaly.focused').count()).toBe(1);
    expect(await page.locator('.anomaly.focused .kind').textContent()).toBe('stale-write');
    const box = page.locator('#timeline');
    const [t0, t1] = [Number(await box.getAttribute('data-t0')), Number(await box.getAttribute('data-t1'))];
    const span = await page.evaluate(() => (window as unknown as { fencecheckReport: { model: { span: [number, number] } } }).fencecheckReport.model.span);
    expect(t1 - t0).toBeLessThan((span[1] - span[0]) / 2);
    // Nothing scrolled: the story and the top of the timeline are in the first 800 px, room for its lanes below.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const timelineTop = (await box.boundingBox())!.y;
    expect(timelineTop).toBeLessThan(800 - 200);
    await page.screenshot({ path: screenshotPath('report-story.png') });
    await page.close();
  });

  it('a run that was not shrunk opens as before: no story, the whole run', async () => {
    const { page, errors } = await openReport(browser(), plainUrl);
    expect(errors).toEqual([]);
    expect(await page.locator('#story').isHidden()).toBe(true);
    expect(await page.locator('.anomaly.focused').count()).toBe(0);
    await page.close();
  });
});
