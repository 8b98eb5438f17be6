/**
 * The committed sample runs are exactly what their generator writes (the real
 * interpreter in the simulation, the real checkers), the simulation's truth
 * agrees with their verdicts, and their anomalies name the right ops: the ops
 * of the processes and tokens they list, inside their windows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Op } from '../../core/history/op.js';
import { readHistory } from '../../src/history/read-history.js';
import type { StoredAnomaly as Anomaly, StoredResults as RunResults } from '../../core/run-files/results-json.js';
import {
  SAMPLE_MUTEX_OPTIONS,
  SAMPLE_MUTEX_RUN_DIR,
  SAMPLE_OPTIONS,
  SAMPLE_RUN_DIR,
  sampleMutexRunFiles,
  sampleRunFiles,
  writeRunFiles,
} from '../fixtures/make-sample-run.js';
import { compareWithTruth } from '../sim/compare-with-truth.js';
import { simulateRun } from '../sim/simulate-run.js';

const fixtures = [
  { dir: SAMPLE_RUN_DIR, files: await sampleRunFiles() },
  { dir: SAMPLE_MUTEX_RUN_DIR, files: await sampleMutexRunFiles() },
];
if (process.env.FC_UPDATE_FIXTURES === '1') for (const f of fixtures) writeRunFiles(f.dir, f.files);
const resultsOf = (i: number) => JSON.parse(fixtures[i]!.files['results.json']) as RunResults;
const anomalies = (i: number, kind: string): Anomaly[] =>
  resultsOf(i)
    .checkers.flatMap((c) => c.anomalies ?? [])
    .filter((a) => a.kind === kind);

describe('the sample-run fixtures', () => {
  it.each(fixtures.flatMap((f) => Object.keys(f.files).map((name) => [f.dir, name] as const)))(
    '%s%s is what make-sample-run.ts writes (FC_UPDATE_FIXTURES=1 rewrites it)',
    (dir, name) => {
      const f = fixtures.find((x) => x.dir === dir)!;
      expect(readFileSync(join(dir, name), 'utf8')).toBe(f.files[name as keyof typeof f.files]);
    },
  );

  it('agree with what the simulation knows happened', async () => {
    for (const options of [SAMPLE_OPTIONS, SAMPLE_MUTEX_OPTIONS]) expect(compareWithTruth(await simulateRun(options)).disagreements).toEqual([]);
    const truth = await simulateRun(SAMPLE_OPTIONS);
    const reallyStale = truth.truth.writes.filter((w) => w.stale);
    // The stale write accepted is the one the truth knows; the rest of the stale attempts were refused by the fence, never applied.
    expect(reallyStale).toHaveLength(anomalies(0, 'stale-write').length);
    expect(truth.truth.writes.reduce((n, w) => n + w.lostIncrements, 0)).toBeGreaterThan(0);
  });

  it('are small and valid histories', async () => {
    for (const f of fixtures) {
      const size = Object.values(f.files).reduce((n, text) => n + Buffer.byteLength(text), 0);
      expect(size).toBeLessThan(200 * 1024);
      const history = await readHistory(join(f.dir, 'history.jsonl'));
      expect(history.length).toBeGreaterThan(200);
      expect(new Set(history.map((op) => op.process)).size).toBeGreaterThanOrEqual(6);
    }
  });

  it('the counter run has a stale write accepted, lost updates, refusals; the mutex run a witness', () => {
    expect(anomalies(0, 'stale-write')).toHaveLength(1);
    expect(anomalies(0, 'lost-update').length).toBeGreaterThanOrEqual(1);
    expect(resultsOf(0).valid).toBe(false);
    expect(fixtures[0]!.files['history.jsonl']).toContain('"outcome":"rejected"');
    expect(anomalies(1, 'not-linearizable')).toHaveLength(1);
    expect(resultsOf(1).valid).toBe(false);
  });

  it('name ops of the listed processes, with a window that meets them', async () => {
    for (const [i, f] of fixtures.entries()) {
      const history = await readHistory(join(f.dir, 'history.jsonl'));
      for (const a of resultsOf(i).checkers.flatMap((c) => c.anomalies ?? [])) {
        const ops = (a.opIndexes ?? []).map((i) => history[i]!);
        for (const op of ops) expect(a.processes).toContain(op.process);
        // The window is where the report zooms (a double hold's is just the overlap): it meets the named ops' span.
        expect(a.window!.start).toBeLessThanOrEqual(a.window!.end);
        expect(a.window!.start).toBeLessThanOrEqual(Math.max(...ops.map((o) => o.time)));
        expect(a.window!.end).toBeGreaterThanOrEqual(Math.min(...ops.map((o) => o.time)));
      }
    }
  });

  it('point the stale write at an accepted write with the older token, and a lost update at two writes of one value', async () => {
    const history = await readHistory(join(SAMPLE_RUN_DIR, 'history.jsonl'));
    const at = (i: number): Op => history[i]!;
    const ops = anomalies(0, 'stale-write')[0]!.opIndexes!.map(at);
    const write = ops.find((o) => o.f === 'write' && o.type === 'ok')!;
    const acquires = ops.filter((o) => o.f === 'acquire' && o.type === 'ok');
    expect(write).toMatchObject({ outcome: 'accepted' });
    const older = acquires.find((o) => o.process === write.process)!;
    const newer = acquires.find((o) => o.process !== write.process)!;
    expect(write.token).toBe(older.token);
    expect(newer.token as number).toBeGreaterThan(older.token as number);
    expect(write.time).toBeGreaterThan(newer.time);
    // Two holders read the same counter and both wrote it plus one: reads and writes, invocation and completion each.
    const pair = anomalies(0, 'lost-update').find((a) => (a.opIndexes ?? []).length === 8)!;
    const [r1, , w1, , r2, , w2] = pair.opIndexes!.map(at);
    expect([r1!.f, w1!.f, r2!.f, w2!.f]).toEqual(['read', 'write', 'read', 'write']);
    expect(w1!.value).toBe(w2!.value);
  });

  it('give the witness as acquire/release invocations in linearization order', async () => {
    const history = await readHistory(join(SAMPLE_MUTEX_RUN_DIR, 'history.jsonl'));
    const w = anomalies(1, 'not-linearizable')[0]!.witness!;
    for (const i of [...w.prefix, w.op]) expect(history[i]).toMatchObject({ type: 'invoke', f: expect.stringMatching(/^(acquire|release)$/) });
    expect(history[w.op]!.f).toBe('acquire');
    expect(w.state).toBe('held');
    expect(w.reason).toBe('already held');
  });
});
