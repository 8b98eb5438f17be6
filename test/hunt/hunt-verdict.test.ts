/**
 * What the hunt counts as a find, on simulated runs judged by the real checkers: a kill of Redis without
 * persistence makes grant-tokens fail (the restarted server gives token 1 again) while the fence keeps the
 * data intact, which is a near miss for the hunt, not the data violation it looks for; an unprotected
 * paused holder's lost update is one; with the mutex workload the lock itself is what is looked for.
 */
import { describe, expect, it } from 'vitest';
import { runResults } from '../../core/analyse/run-results.js';
import { parseResultsJson } from '../../core/run-files/results-json.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { huntVerdict, readTryOf } from '../../src/hunt/hunt-verdict.js';
import { simulateRun } from '../sim/simulate-run.js';

const base: RunOptions = {
  backend: 'redis',
  resource: 'fence-claim',
  workload: 'lock-counter',
  nemesis: ['kill'],
  timeLimitS: 6,
  clients: 3,
  ttlMs: 500,
  seed: 11,
  holdMs: 100,
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
const kills: FaultWindow[] = [1000, 3000].map((at) => ({
  at,
  until: at + 800,
  fault: 'kill',
  target: { kind: 'node', node: 'redis1' },
  trigger: { on: 'grant', withinMs: 800 },
}));
const pause: FaultWindow[] = [{ at: 1000, until: 2500, fault: 'client-pause', target: { kind: 'holder' }, trigger: { on: 'holder-read', withinMs: 2000 } }];

async function judged(o: RunOptions) {
  const run = await simulateRun(o);
  // Read back as the hunt reads a run's results.json.
  return { run, results: parseResultsJson(JSON.stringify(runResults(run.history, o, o.script?.length, null)), 'results.json') };
}

describe("the hunt's verdict of a try", () => {
  it('fence-claim on a Redis killed after grants: INVALID by grant-tokens alone, data intact; the hunt reads it as tested, not found', async () => {
    const o = { ...base, script: kills };
    const { run, results } = await judged(o);
    expect(results.valid, `seed ${o.seed}: the restarted Redis gives low tokens again`).toBe(false);
    const invalid = results.checkers.filter((c) => c.valid === false && results.deciding!.includes(c.checker)).map((c) => c.checker);
    expect(invalid).toContain('grant-tokens');
    expect(invalid.filter((c) => ['lost-updates', 'stale-writes', 'interleaved-sections'].includes(c))).toEqual([]);
    const v = huntVerdict(results, o.workload);
    expect(v.lockOnly).toEqual(invalid);
    expect(v.outcome).not.toBe('unsafe');
    const lines: string[] = [];
    expect(readTryOf(run.history, results, o, (l) => lines.push(l)).outcome).toBe(v.outcome);
    expect(lines.join('\n')).toMatch(/INVALID by .*grant-tokens.* only: the lock broke, the data did not/);
  });

  it('an unprotected holder paused between its read and its write: the data broken, a find', async () => {
    const o: RunOptions = { ...base, resource: 'none', nemesis: ['client-pause'], script: pause };
    const { results } = await judged(o);
    expect(huntVerdict(results, o.workload)).toMatchObject({ outcome: 'unsafe', lockOnly: [] });
  });

  it('with the mutex workload the lock is what the hunt looks for: a double hold is a find', async () => {
    const o: RunOptions = { ...base, resource: 'none', workload: 'mutex', nemesis: ['client-pause'], script: pause };
    const { results } = await judged(o);
    expect(results.valid).toBe(false);
    expect(huntVerdict(results, o.workload)).toMatchObject({ outcome: 'unsafe', lockOnly: [] });
  });
});

describe('a violation says which data checkers broke it', () => {
  it("fence mode, a paused holder's write accepted before the next holder read: stale-writes INVALID, the counter intact, and the VIOLATION says so", async () => {
    const { call, lockHistory, nemesis, section } = await import('../lock-checkers/lock-history.js');
    const { huntOutcome } = await import('../../src/hunt/hunt-outcome.js');
    // p0 granted token 1, reads 0, is paused past its 500 ms lease; p1 is granted token 2; p0 wakes and its write of 1
    // lands first (the fence is still 1), then p1 reads 1 and writes 2: every acknowledged increment is in the counter.
    const history = lockHistory(
      section(
        0,
        1,
        10,
        3300,
        call(0, 'read', 11, 12, 'ok', { result: 0, token: 1, outcome: 'accepted' }),
        call(0, 'write', 20, 3100, 'ok', { value: 1, token: 1, outcome: 'accepted', startedMs: 3090 }),
      ),
      nemesis(15, 'pause', { target: 'c1', pid: 101, process: 0 }),
      nemesis(3080, 'resume', { target: 'c1', pid: 101, process: 0 }),
      section(
        1,
        2,
        1000,
        3400,
        call(1, 'read', 3200, 3201, 'ok', { result: 1, token: 2, outcome: 'accepted' }),
        call(1, 'write', 3210, 3211, 'ok', { value: 2, token: 2, outcome: 'accepted' }),
      ),
      call(2, 'final-read', 4000, 4001, 'ok', { result: 2 }),
    );
    const o: RunOptions = { ...base, resource: 'fence', nemesis: ['client-pause'], script: pause };
    const results = parseResultsJson(JSON.stringify(runResults(history, o, 1, null)), 'results.json');
    const verdictOf = (name: string) => results.checkers.find((c) => c.checker === name)!.valid;
    expect([verdictOf('stale-writes'), verdictOf('lost-updates')]).toEqual([false, true]);
    const read = readTryOf(history, results, o, () => undefined);
    expect(read.outcome).toBe('unsafe');
    const plan = {
      index: 0,
      swarm: ['client-pause' as const],
      hold: 'short' as const,
      patience: 'short' as const,
      windows: pause,
      origin: { kind: 'swarm' as const },
    };
    const out = huntOutcome([{ plan, runDir: '/r', replay: 'fencecheck run …', ...read, error: null, endedAtMs: 1000 }], false);
    expect(out.lines[0]).toMatch(/^VIOLATION: 1 of 1 try violated/);
    expect(out.lines).toContain(
      '  the data: broken by stale-writes only; lost-updates, interleaved-sections held (the counter survived: every acknowledged increment is in it)',
    );
  });
});
