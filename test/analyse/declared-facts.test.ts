/**
 * Declared facts held against the history (core/analyse/declared-facts.ts),
 * on histories the product computed: the simulation (simulate-run.ts: the
 * real plan, interpreter, clients, resource SQL and checkers on virtual
 * time) runs seeded plans across backends, workloads and resource modes.
 *
 * The property: the facts a run really had fit its history; and every other
 * value of a fact that chooses checkers (workload, resource, backend with
 * another token kind) is either caught as a contradiction, or judges the
 * history at least as harshly as the true facts do: never safe where the
 * truth is untested or unsafe. A fact that could be changed to make a run
 * look safer unnoticed fails this test. (The one way left open: a history of
 * the database's own modes declared `none` or a token mode, which only makes
 * its verdict harsher; nothing in such a history tells a row lock that
 * happened to see no overlap from no protection at all. Counted, printed.)
 */
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../core/plan/run-options.js';
import { runResults } from '../../core/analyse/run-results.js';
import { firstContradiction, type DeclaredFacts } from '../../core/analyse/declared-facts.js';
import { notApplicable, notApplicableWithoutLock, RESOURCE_MODES, WORKLOADS, type LockBackend } from '../../core/vocabulary.js';
import { Prng } from '../../core/random/prng.js';
import { simulateRun } from '../sim/simulate-run.js';

const SEED = process.env['FC_SEED'] === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env['FC_SEED'] ?? 20261204);
const BACKENDS: readonly LockBackend[] = ['redis', 'redlock', 'etcd', 'zookeeper', 'none'];
const RUNS = 14;

const base: Omit<RunOptions, 'backend' | 'resource' | 'workload' | 'seed'> = {
  nemesis: ['client-pause'],
  timeLimitS: 8,
  clients: 3,
  ttlMs: 1000,
  holdMs: 150,
  rate: 3,
  intervalMs: 1500,
  durationMs: 2500,
  recoverMs: 1000,
  callTimeoutMs: 500,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};

function runnable(backend: LockBackend, resource: RunOptions['resource'], workload: RunOptions['workload']): boolean {
  return notApplicable(backend, resource, ['client-pause']) === undefined && notApplicableWithoutLock(backend, workload) === undefined;
}

/** Seeded picks of (backend, workload, resource) that can run, each a different seed. */
function plans(): RunOptions[] {
  const prng = new Prng(SEED);
  const out: RunOptions[] = [];
  while (out.length < RUNS) {
    const backend = prng.pick(BACKENDS);
    const workload = prng.pick(WORKLOADS);
    const resource = prng.pick(RESOURCE_MODES);
    if (!runnable(backend, resource, workload)) continue;
    out.push({ ...base, backend, workload, resource, seed: prng.int(1, 1_000_000) });
  }
  return out;
}

/** How safe an outcome claims the data is: a changed fact may only move it down this list. */
const SAFETY: Record<string, number> = { safe: 3, untested: 2, unknown: 1, unsafe: 0 };

const judged = (history: Parameters<typeof runResults>[0], o: Pick<RunOptions, 'workload' | 'resource' | 'backend'>) => {
  const r = runResults(history, o, undefined, null);
  return { valid: r.valid, outcome: r.outcome };
};

describe(`declared facts against the simulated history (seed ${SEED}; FC_SEED=${SEED} to replay)`, () => {
  it('the true facts fit; every other workload, resource or token kind is caught or judges alike', async () => {
    let caught = 0;
    let alike = 0;
    let harsher = 0;
    for (const o of plans()) {
      const run = await simulateRun(o);
      const facts: DeclaredFacts = { workload: o.workload, resource: o.resource, backend: o.backend, foreignClient: false };
      expect(firstContradiction(run.history, facts), `${o.backend}/${o.resource}/${o.workload} seed ${o.seed}`).toBeNull();
      const truth = judged(run.history, o);
      const others: DeclaredFacts[] = [
        ...WORKLOADS.filter((w) => w !== o.workload).map((workload) => ({ ...facts, workload })),
        ...RESOURCE_MODES.filter((r) => r !== o.resource).map((resource) => ({ ...facts, resource })),
        ...BACKENDS.filter((b) => b !== o.backend).map((backend) => ({ ...facts, backend })),
      ];
      for (const other of others) {
        const label = `${o.backend}/${o.resource}/${o.workload} seed ${o.seed} declared as ${other.backend}/${other.resource}/${other.workload}`;
        if (firstContradiction(run.history, other) !== null) {
          caught++;
          continue;
        }
        const changed = judged(run.history, other);
        expect(SAFETY[changed.outcome]!, `${label}: ${truth.outcome} became ${changed.outcome}`).toBeLessThanOrEqual(SAFETY[truth.outcome]!);
        if (changed.outcome === truth.outcome) alike++;
        else harsher++;
      }
    }
    console.log(`declared facts: ${caught} changed facts caught, ${alike} judged alike, ${harsher} judged more harshly (seed ${SEED})`);
    // The rules do catch: most changed facts contradict a history that did something.
    expect(caught).toBeGreaterThan(alike + harsher);
  }, 120_000);

  it('test.json that contradicts itself: a clientToken without a client', () => {
    const c = firstContradiction([], { workload: 'mutex', resource: 'none', backend: 'redis', clientToken: 'monotonic', foreignClient: false });
    expect(c).toMatchObject({ fact: 'clientToken', op: null });
  });
});
