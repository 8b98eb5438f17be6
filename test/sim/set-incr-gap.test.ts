/**
 * The single-Redis lock takes its fencing token in a second round trip (SET
 * NX PX, then INCR name:fence: redis-client.ts). The simulation runs that
 * real client, so a holder stopped between the two is reachable: its key
 * expires while it sleeps, another client SETs and INCRs, and the sleeper's
 * INCR, when it wakes, hands it a LARGER token than the lawful holder's, so
 * a fence admits it: it writes under a lock it no longer holds. This test
 * stops the first client whose SET wins, right after the server applied it
 * (a SIGSTOP at that instant, as a GC pause would), for longer than the
 * lease and shorter than the call timeout (a longer one ends the acquire
 * `info timeout`: on waking, the command timer fires before the reply is
 * read, as Node's timers phase comes first), and shows what happened and
 * what the checkers say: nothing, and rightly from the history alone. The
 * sleeper's acquire spans every section granted while it slept, so the
 * history is that of a client granted the lock last, with the largest
 * token; only the service's truth shows its key expired long before it took
 * its token. (Here no one touched the row during its write, so no update was
 * lost; a fence keyed on the INCR cannot tell this holder from a lawful one.)
 */
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../core/plan/run-options.js';
import { analyseRun } from '../../core/analyse/analyse-run.js';
import { compareWithTruth } from './compare-with-truth.js';
import { simulateRun, type SimWorld } from './simulate-run.js';

const options: RunOptions = {
  backend: 'redis',
  resource: 'fence',
  workload: 'lock-counter',
  nemesis: [],
  timeLimitS: 4,
  clients: 2,
  ttlMs: 200,
  seed: 3,
  holdMs: 100,
  rate: 8,
  intervalMs: 1000,
  durationMs: 1000,
  recoverMs: 500,
  callTimeoutMs: 1500,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};

describe('a holder paused between its SET and its INCR (simulated)', () => {
  it('wakes with a larger token than the sections granted meanwhile and writes under a lock it no longer holds; the history cannot show it', async () => {
    let world: SimWorld | undefined;
    let paused: string | undefined;
    const run = await simulateRun(options, {
      world: (w) => (world = w),
      redisCommand: (_node, command, key, _value, client) => {
        if (paused !== undefined || command !== 'set' || key !== 'fencecheck-lock') return;
        // The server applied the SET; its OK is on the way back to a client that is stopped now, for five leases.
        paused = client;
        const proc = world!.clients.get(client)!.proc;
        proc.pause();
        world!.clock.setTimer(5 * options.ttlMs, () => proc.resume());
      },
    });
    const { grants, writes } = run.truth;
    // The service's truth: the sleeper's grant came first, yet its token is the larger one.
    const sleeper = grants[0]!;
    const lawful = grants[1]!;
    expect(sleeper.process).toBe(paused);
    expect(lawful.process).not.toBe(paused);
    expect(lawful.atMs - sleeper.atMs).toBeGreaterThanOrEqual(options.ttlMs);
    expect(Number(sleeper.token)).toBeGreaterThan(Number(lawful.token));
    // The sleeper's write landed, stale (its lock had passed on), and the fence took it.
    const staleWrite = writes.find((w) => w.token === sleeper.token);
    expect(staleWrite).toMatchObject({ stale: true, supersededBy: lawful.token });

    // The history: the sleeper's acquire completes last, with the largest token, after every section granted meanwhile.
    const acquires = run.history.filter((o) => o.f === 'acquire' && o.type === 'ok');
    expect(acquires.find((o) => o['token'] === sleeper.token)!.time).toBeGreaterThan(acquires.find((o) => o['token'] === lawful.token)!.time);
    // What the checkers say of it, and that they agree with the truth.
    const checked = analyseRun(run.history, options);
    const verdict = (name: string) => checked.verdicts.find((v) => v.checker === name)!;
    console.log(
      `[set-incr gap] sleeper token ${String(sleeper.token)} granted at ${sleeper.atMs.toFixed(1)} ms, lawful token ${String(lawful.token)} at ${lawful.atMs.toFixed(1)} ms; ${checked.verdicts.map((v) => `${v.checker}: ${String(v.valid)} (${v.summary})`).join('; ')}`,
    );
    expect(compareWithTruth(run).disagreements).toEqual([]);
    expect(verdict('stale-writes').valid).toBe(true);
    expect(verdict('mutual-exclusion').valid).toBe(true);
    expect(verdict('grant-tokens').valid).toBe(true);
  });
});
