/// <reference lib="dom" />
/**
 * Every value from a run is text on the page: a history, test.json and
 * results.json full of `</script><img src=x onerror=...>` render as those
 * characters, with no element made from them, both in the HTML file and in
 * the browser's DOM.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readRunDir } from '../../src/report/read-run-dir.js';
import { writeRunReport } from '../../src/report/write-run-report.js';
import { HAS_CHROMIUM, NO_CHROMIUM, openReport, screenshotPath, sharedBrowser, type ReportHooks } from './chromium.js';
import { tempDir } from './temp-run.js';

const XSS = '</script><img src=x onerror=alert(1)>';
const XSS_FLAG = '<img src=x onerror="window.__xss=1"><!--';

function writeHostileRun(): string {
  const dir = join(tempDir(), 'hostile-run');
  mkdirSync(dir);
  const ops = [
    { index: 0, time: 1_000_000, process: 0, type: 'invoke', f: 'acquire', value: null, node: XSS },
    { index: 1, time: 2_000_000, process: 0, type: 'ok', f: 'acquire', value: null, token: XSS_FLAG, [XSS]: XSS },
    { index: 2, time: 3_000_000, process: 0, type: 'invoke', f: XSS, value: XSS },
    { index: 3, time: 9_000_000, process: 0, type: 'fail', f: XSS, value: XSS, error: [XSS, XSS_FLAG] },
    { index: 4, time: 9_500_000, process: 'nemesis', type: 'info', f: 'pause', value: { target: XSS, process: 0 } },
    { index: 5, time: 9_900_000, process: 'nemesis', type: 'info', f: 'resume', value: { target: XSS, process: 0 } },
  ];
  writeFileSync(join(dir, 'history.jsonl'), ops.map((o) => JSON.stringify(o)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'test.json'),
    JSON.stringify({
      name: XSS,
      backend: 'redis',
      resource: 'none',
      workload: 'lock-counter',
      seed: 1,
      nemesisTarget: XSS_FLAG,
      nemeses: [XSS],
      versions: { [XSS]: XSS },
      replay: XSS,
      [XSS]: XSS,
    }),
  );
  writeFileSync(
    join(dir, 'results.json'),
    JSON.stringify({
      valid: false,
      checkers: [
        {
          checker: XSS,
          valid: false,
          summary: XSS_FLAG,
          anomalies: [{ kind: XSS, message: XSS, processes: [0], tokens: [XSS], window: { start: 0, end: 10_000_000 }, opIndexes: [1, 3] }],
        },
      ],
    }),
  );
  return dir;
}

describe('escaping', () => {
  let path: string;
  beforeAll(async () => {
    // The hostile results.json as written (ownRun: a scenario's own run reaches the page this way); read from a
    // directory someone else touched it would be refused, not drawn, as it disagrees with the history.
    const dir = writeHostileRun();
    path = await writeRunReport(dir, await readRunDir(dir, { ownRun: true }));
  });

  it('leaves no markup from the data in the HTML file', () => {
    const html = readFileSync(path, 'utf8');
    expect(html).not.toContain('<img');
    expect(html).not.toContain(XSS);
    expect(html).toContain('&lt;/script&gt;&lt;img'); // the <title>, escaped
    expect(html.match(/<\/script>/g)).toHaveLength(3); // data, d3, page: nothing else closes a script
  });

  describe.skipIf(!HAS_CHROMIUM)('in the browser', () => {
    const browser = sharedBrowser();

    it('renders the values as text', async () => {
      const { page, errors } = await openReport(browser(), pathToFileURL(path).href);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('#run-header h1').textContent()).toBe(XSS);
      expect(await page.locator('.anomaly .message').textContent()).toBe(XSS);
      expect(await page.locator('.checker .summary').textContent()).toBe(XSS_FLAG);
      expect(await page.locator('.replay code').textContent()).toBe(XSS);
      await page.locator('.anomaly').click();
      expect(await page.locator('#involved-ops').textContent()).toContain(XSS);
      // The tooltip of the op whose f, value and error are the payload.
      const box = (await page.locator('canvas.tl-canvas').boundingBox())!;
      const x = await page.evaluate(() => {
        const r = (window as unknown as { fencecheckReport: ReportHooks }).fencecheckReport;
        return r.view.x((r.model.pairs.start[1]! + r.model.pairs.end[1]!) / 2);
      });
      await page.mouse.move(box.x + x, box.y + 10);
      await page.locator('#tooltip').waitFor({ state: 'visible' });
      expect(await page.locator('#tooltip').textContent()).toContain(XSS);
      expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
      await page.screenshot({ path: screenshotPath('report-xss.png') });
      await page.close();
    });
  });
});

if (!HAS_CHROMIUM) console.warn(NO_CHROMIUM);
