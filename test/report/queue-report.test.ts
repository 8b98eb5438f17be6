/**
 * A queue run's report.html, from the queue run the project recorded (test/fixtures/runs/
 * recorded-queue-bullmq: BullMQ, three workers, two stalls past the lock, two jobs done twice):
 * the timeline read from the history (one bar per delivery, the stalls as windows on their
 * workers, the duplicated jobs with both deliveries), the report's verdict judged from the
 * history and not from results.json, no script and every value escaped, and `fencecheck report
 * RUN_DIR` / `report --index --write-reports` writing it with the run's exit code, and the index
 * listing the run with its judged verdict.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { History, Op } from '../../core/history/op.js';
import { queueTimeline } from '../../src/report/queue-timeline.js';
import { writeQueueReport } from '../../src/report/write-queue-report.js';
import { readQueueRun } from '../../runtime/store/read-run-files.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { runCli } from '../cli/run-cli.js';
import { listRuns } from '../../src/report/list-runs.js';

const RECORDED = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runs', 'recorded-queue-bullmq');

function copy(): string {
  const dir = join(madeTempDir('fc-queue-report-'), 'results', 'redis-bullmq-none-queue', 'run');
  cpSync(RECORDED, dir, { recursive: true });
  return dir;
}

function history(): History {
  return readFileSync(join(RECORDED, 'history.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Op);
}

describe("a queue run's report", () => {
  it('reads one delivery per take, the stalls as windows on their workers, and the jobs the final read holds twice', () => {
    const h = history();
    const t = queueTimeline(h);
    const takes = h.filter((op) => op.f === 'take' && op.type === 'ok');
    expect(t.deliveries).toHaveLength(takes.length);
    expect(t.workers).toEqual(['w1', 'w2', 'w3']);
    const pauses = h.filter((op) => op.process === 'nemesis' && op.f === 'pause' && op.type === 'invoke');
    expect(t.faults.filter((f) => f.kind === 'stall')).toHaveLength(pauses.length);
    for (const f of t.faults) expect(f.end).toBeGreaterThan(f.start);
    expect(t.duplicated).toHaveLength(2);
    for (const d of t.duplicated) {
      expect(d.deliveries.length).toBeGreaterThanOrEqual(2);
      expect(d.deliveries.filter((x) => x.effect?.mark === 'accepted').length).toBeGreaterThanOrEqual(2);
      // The second delivery was taken while the first's worker was stalled.
      const [first, second] = d.deliveries;
      expect(t.faults.some((f) => f.victim === first!.worker && f.start <= second!.take && second!.take <= (f.end ?? Infinity))).toBe(true);
    }
  });

  it('draws a worker cut off from the queue server as its own window, opened and closed by the partition ops', () => {
    // The recorded stalls spelled as the runner records a cut (client-partition): same victims, same times.
    const h = history().map((op): Op => {
      if (op.process !== 'nemesis' || (op.f !== 'pause' && op.f !== 'resume')) return op;
      const worker = (op.value as { worker: string }).worker;
      return { ...op, f: op.f === 'pause' ? 'start-partition' : 'stop-partition', value: { worker, from: 'redis1' } };
    });
    const t = queueTimeline(h);
    const cuts = h.filter((op) => op.f === 'start-partition' && op.type === 'invoke');
    expect(cuts.length).toBeGreaterThan(0);
    expect(t.faults.map((f) => f.kind)).toEqual(cuts.map(() => 'worker cut off'));
    for (const f of t.faults) expect(f.end).toBeGreaterThan(f.start);
  });

  it('judges the verdict from the history, not results.json, draws a bar per delivery, and has no script', () => {
    const dir = copy();
    // An edited verdict in results.json is not what the report shows.
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ ...results, outcome: 'safe', valid: true }));
    const { path, results: judged } = writeQueueReport(dir, readQueueRun(dir)!);
    const html = readFileSync(path, 'utf8');
    expect(judged.outcome).toBe('unsafe');
    expect(html).toContain('<p class="outcome unsafe">UNSAFE</p>');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"`);
    const takes = history().filter((op) => op.f === 'take' && op.type === 'ok').length;
    expect(html.match(/<rect class="bar /g)).toHaveLength(takes);
    expect(html.match(/<rect class="bar dup"/g)!.length).toBeGreaterThanOrEqual(4);
    expect(html).toContain('Jobs run twice (2)');
    expect(html).toContain('bullmq 6.7.6 on redis');
  });

  it('escapes every value it shows: a test name with markup stays text', () => {
    const dir = copy();
    const test = JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8'));
    writeFileSync(join(dir, 'test.json'), JSON.stringify({ ...test, name: '<img src=x onerror=alert(1)>', library: '<b>lib</b>' }));
    const html = readFileSync(writeQueueReport(dir, readQueueRun(dir)!).path, 'utf8');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>lib</b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('is written by `fencecheck report RUN_DIR` with the exit code of the run, and by `report --index --write-reports`', () => {
    const dir = copy();
    const r = runCli(['report', dir]);
    expect(r.stdout).toContain(`report: ${join(dir, 'report.html')}`);
    expect(r.stdout).toMatch(/total-queue: INVALID: 2 of \d+ jobs done twice or more/);
    expect(r.code).toBe(1);

    const other = copy();
    const results = join(other, '..', '..');
    const index = runCli(['report', '--index', results, '--write-reports']);
    expect(index.code).toBe(0);
    expect(index.stdout).toMatch(/1 report written/);
    expect(existsSync(join(other, 'report.html'))).toBe(true);
  });

  it("is listed in the index as what it is: its verdict judged from its history, its test's facts, no problem", async () => {
    const dir = copy();
    const results = join(dir, '..', '..');
    // An edited verdict in results.json is not what the index shows either.
    const stored = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ ...stored, outcome: 'safe', valid: true }));
    const [run] = await listRuns(results);
    expect(run!.problem).toBeUndefined();
    expect(run!.valid).toBe(false);
    expect(run!.name).toBe('redis-bullmq-none-queue');
    expect(run!.test).toMatchObject({ workload: 'queue', backend: 'redis', client: 'bullmq', seed: 7 });
    expect(run!.checkers.map((c) => [c.checker, c.valid])).toEqual([['total-queue', false]]);
    expect(run!.anomalies).toBe(2);
  });
});
