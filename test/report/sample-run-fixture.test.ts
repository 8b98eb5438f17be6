/**
 * The committed fixture run is exactly what its generator writes, is a valid
 * history, and its anomalies name the right ops: the ops of the processes and
 * tokens they list, inside their windows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Op } from '../../src/history/op.js';
import { readHistory } from '../../src/history/read-history.js';
import type { StoredAnomaly as Anomaly, StoredResults } from '../../src/store/results-json.js';
import { writeRunFiles } from '../fixtures/lock-counter-run-files.js';
import { SAMPLE_RUN_DIR, sampleRunFiles } from '../fixtures/make-sample-run.js';

const files = sampleRunFiles();
if (process.env.FC_UPDATE_FIXTURES === '1') writeRunFiles(SAMPLE_RUN_DIR, files);
const results = JSON.parse(files['results.json']) as StoredResults;
const anomalies = (kind: string): Anomaly[] => results.checkers.flatMap((c) => c.anomalies ?? []).filter((a) => a.kind === kind);

describe('the sample-run fixture', () => {
  it.each(Object.keys(files))('%s is what make-sample-run.ts writes (FC_UPDATE_FIXTURES=1 rewrites it)', (name) => {
    expect(readFileSync(join(SAMPLE_RUN_DIR, name), 'utf8')).toBe(files[name as keyof typeof files]);
  });

  it('is small and a valid history', async () => {
    const size = Object.values(files).reduce((n, text) => n + Buffer.byteLength(text), 0);
    expect(size).toBeLessThan(200 * 1024);
    const history = await readHistory(join(SAMPLE_RUN_DIR, 'history.jsonl'));
    expect(history.length).toBeGreaterThan(500);
    expect(new Set(history.map((op) => op.process)).size).toBeGreaterThanOrEqual(6);
  });

  it('has one stale write accepted, one lost update and a mutex witness', () => {
    expect(anomalies('stale-write')).toHaveLength(1);
    expect(anomalies('lost-update')).toHaveLength(1);
    expect(anomalies('not-linearizable')).toHaveLength(1);
    expect(results.valid).toBe(false);
  });

  it('names the ops of the listed processes and tokens, inside the window', async () => {
    const history = await readHistory(join(SAMPLE_RUN_DIR, 'history.jsonl'));
    for (const a of results.checkers.flatMap((c) => c.anomalies ?? [])) {
      for (const index of a.opIndexes ?? []) {
        const op = history[index]!;
        expect(a.processes).toContain(op.process);
        if (op.token !== undefined) expect(a.tokens).toContain(op.token);
        expect(op.time).toBeGreaterThanOrEqual(a.window!.start);
        expect(op.time).toBeLessThanOrEqual(a.window!.end);
      }
    }
  });

  it('points the stale write at an accepted write with the older token, and the lost update at two writes of one value', async () => {
    const history = await readHistory(join(SAMPLE_RUN_DIR, 'history.jsonl'));
    const at = (i: number): Op => history[i]!;
    const [staleAcquire, takerAcquire, staleWrite] = anomalies('stale-write')[0]!.opIndexes!.map(at);
    expect([staleAcquire!.f, takerAcquire!.f, staleWrite!.f]).toEqual(['acquire', 'acquire', 'write']);
    expect(staleWrite).toMatchObject({ type: 'ok', outcome: 'accepted', token: staleAcquire!.token, process: staleAcquire!.process });
    expect(staleWrite!.time).toBeGreaterThan(takerAcquire!.time);
    expect(takerAcquire!.token as number).toBeGreaterThan(staleAcquire!.token as number);
    const [r1, w1, r2, w2] = anomalies('lost-update')[0]!.opIndexes!.map(at);
    expect([r1!.f, w1!.f, r2!.f, w2!.f]).toEqual(['read', 'write', 'read', 'write']);
    expect(r1!.value).toBe(r2!.value);
    expect(w1!.value).toBe(w2!.value);
    expect([w1!.type, w2!.type]).toEqual(['ok', 'ok']);
  });

  it('gives the witness as acquire/release invocations in linearization order', async () => {
    const history = await readHistory(join(SAMPLE_RUN_DIR, 'history.jsonl'));
    const w = anomalies('not-linearizable')[0]!.witness!;
    for (const i of [...w.prefix, w.op]) expect(history[i]).toMatchObject({ type: 'invoke', f: expect.stringMatching(/^(acquire|release)$/) });
    expect(history[w.op]!.f).toBe('acquire');
    expect(w.state).toBe('held');
    expect(w.reason).toBe('already held');
  });
});
