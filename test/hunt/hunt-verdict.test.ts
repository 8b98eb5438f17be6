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
import type { FaultWindow } from '../../core/generator/nemesis-schedule.js';
import { huntVerdict, readTryOf } from '../../src/hunt/hunt-verdict.js';
import { simulateRun } from '../sim/simulate-run.js';

const base: RunOptions = {
  backend: 'redis', resource: 'fence-claim', workload: 'lock-counter', nemesis: ['kill'], timeLimitS: 6, clients: 3, ttlMs: 500, seed: 11, holdMs: 100, rate: 4,
  intervalMs: 1000, durationMs: 1000, recoverMs: 500, callTimeoutMs: 300, nemesisTarget: 'random', redisPersistence: 'none', resultsDir: 'unused', checkHold: false,
};
const kills: FaultWindow[] = [1000, 3000].map((at) => ({ at, until: at + 800, fault: 'kill', target: { kind: 'node', node: 'redis1' }, trigger: { on: 'grant', withinMs: 800 } }));
const pause: FaultWindow[] = [{ at: 1000, until: 2500, fault: 'client-pause', target: { kind: 'holder' }, trigger: { on: 'holder-read', withinMs: 2000 } }];

async function judged(o: RunOptions) {
  const run = await simulateRun(o);
  // Read back as the hunt reads a run's results.json.
  return { run, results: parseResultsJson(JSON.stringify(runResults(run.history, o, o.script?.length, null)), 'results.json') };
}

describe('the hunt\'s verdict of a try', () => {
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
    expect(huntVerdict(results, o.workload)).toEqual({ outcome: 'unsafe', lockOnly: [] });
  });

  it('with the mutex workload the lock is what the hunt looks for: a double hold is a find', async () => {
    const o: RunOptions = { ...base, resource: 'none', workload: 'mutex', nemesis: ['client-pause'], script: pause };
    const { results } = await judged(o);
    expect(results.valid).toBe(false);
    expect(huntVerdict(results, o.workload)).toEqual({ outcome: 'unsafe', lockOnly: [] });
  });
});
