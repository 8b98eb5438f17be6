/**
 * Double holds within validity, read from simulated runs of the real
 * Redlock client (test/sim): Kleppmann's clock jump (S3's script) makes two
 * holders both inside the validity their grants promised; the same split
 * with clocks untouched (S10) makes none; a holder paused past its lease
 * makes double holds, but the paused one is past its validity, so none of
 * them counts. One jump on a majority of the nodes at once needs no split;
 * on a minority it cannot make a second majority. And on built histories: the window ends at the release, a
 * grant without validity has none, one process never overlaps itself.
 */
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../core/plan/run-options.js';
import { validDoubleHolds } from '../../src/scenarios/valid-double-holds.js';
import { CLOCK_JUMP_SCRIPT, RING_SCRIPT } from '../../src/scenarios/redlock-scenarios.js';
import { holdsOf } from '../../core/checkers/lock/holds.js';
import { simulateRun } from '../sim/simulate-run.js';
import { call, lockHistory } from '../lock-checkers/lock-history.js';

const S3_LIKE: RunOptions = {
  backend: 'redlock',
  resource: 'none',
  workload: 'lock-counter',
  nemesis: [],
  timeLimitS: 12,
  clients: 2,
  ttlMs: 2000,
  seed: 3,
  holdMs: 1500,
  rate: 4,
  intervalMs: 1000,
  durationMs: 1000,
  recoverMs: 500,
  callTimeoutMs: 300,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};

/** Definite double holds as mutual exclusion counts them (a hold ends at its release). */
const doubleHolds = (history: Parameters<typeof holdsOf>[0]): number => {
  const holds = holdsOf(history).holds.filter((h) => h.definite);
  let n = 0;
  for (let i = 0; i < holds.length; i++)
    for (let j = i + 1; j < holds.length; j++)
      if (holds[i]!.process !== holds[j]!.process && holds[i]!.start < holds[j]!.end && holds[j]!.start < holds[i]!.end) n++;
  return n;
};

describe('double holds within validity', () => {
  it('a clock jump on the node two majorities share: two holders both within their validity', async () => {
    const run = await simulateRun({ ...S3_LIKE, script: CLOCK_JUMP_SCRIPT });
    expect(validDoubleHolds(run.history)).toBeGreaterThan(0);
  });

  it('one jump on a majority of the nodes at once, no partition: two holders within their validity; on a minority: none', async () => {
    // The jump strikes when someone holds (trigger held), on three, then two, of the five nodes; seeds printed by their index.
    const jump = (nodes: string[]) => [
      {
        at: 1000,
        until: 3000,
        fault: 'clock' as const,
        target: { kind: 'nodes' as const, nodes },
        offsetMs: 4000,
        trigger: { on: 'held' as const, withinMs: 8000 },
      },
    ];
    const o = { ...S3_LIKE, clients: 3 };
    const valid = async (nodes: string[], seed: number) => validDoubleHolds((await simulateRun({ ...o, seed, script: jump(nodes) })).history);
    const seeds = [1, 2, 3, 4, 5, 6];
    const majority = await Promise.all(seeds.map((seed) => valid(['redlock1', 'redlock3', 'redlock5'], seed)));
    const minority = await Promise.all(seeds.map((seed) => valid(['redlock2', 'redlock4'], seed)));
    console.log(`[clock on a node set] seeds ${seeds.join(',')}: majority ${majority.join(',')}, minority ${minority.join(',')}`);
    // The holder keeps the other two (three) nodes: a second client reaches a majority only when three forget it.
    expect(majority.filter((n) => n > 0).length).toBeGreaterThan(seeds.length / 2);
    expect(minority.every((n) => n === 0)).toBe(true);
  });

  it('a jump on a set of nodes is recorded as one offset on each, and undone on each', async () => {
    const script = [
      { at: 1000, until: 2000, fault: 'clock' as const, target: { kind: 'nodes' as const, nodes: ['redlock2', 'redlock4', 'redlock5'] }, offsetMs: 4000 },
    ];
    const { history } = await simulateRun({ ...S3_LIKE, script });
    const offsets = history
      .filter((op) => op.process === 'nemesis' && op.f === 'clock-offset' && op.type === 'info' && op.error === undefined)
      .map((op) => JSON.stringify(op.value));
    expect(offsets.sort()).toEqual(
      ['redlock2', 'redlock4', 'redlock5']
        .flatMap((n) => [
          { target: n, ms: 0 },
          { target: n, ms: 4000 },
        ])
        .map((v) => JSON.stringify(v))
        .sort(),
    );
  });

  it('the same split with clocks untouched: none', async () => {
    const run = await simulateRun({ ...S3_LIKE, clients: 3, script: RING_SCRIPT });
    expect(validDoubleHolds(run.history)).toBe(0);
  });

  it('a holder paused past its lease: double holds, none of them within both validities', async () => {
    const script = [
      { at: 1000, until: 6000, fault: 'client-pause' as const, target: { kind: 'holder' as const }, trigger: { on: 'holder-read' as const, withinMs: 3000 } },
    ];
    const run = await simulateRun({ ...S3_LIKE, clients: 3, script });
    expect(doubleHolds(run.history)).toBeGreaterThan(0);
    expect(validDoubleHolds(run.history)).toBe(0);
  });

  it('on built histories: ends at the release, needs a validity, never one process with itself', () => {
    const granted = (p: number, from: number, to: number, validityMs: number) => call(p, 'acquire', from, to, 'ok', { validityMs, startedMs: from });
    // p0 valid 100..1100 ms; p1 granted at 600 ms: overlap.
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 1000), granted(1, 550, 600, 1000)))).toBe(1);
    // p0 releases at 500 ms first: no overlap.
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 1000), call(0, 'release', 500, 520, 'ok'), granted(1, 550, 600, 1000)))).toBe(0);
    // p0's validity (200 ms) over by the time p1 is granted: a late holder, not this.
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 200), granted(1, 550, 600, 1000)))).toBe(0);
    // No validity promised: nothing to break.
    expect(validDoubleHolds(lockHistory(call(0, 'acquire', 100, 150, 'ok'), call(1, 'acquire', 550, 600, 'ok')))).toBe(0);
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 1000), granted(0, 550, 600, 1000)))).toBe(0);
  });
});
