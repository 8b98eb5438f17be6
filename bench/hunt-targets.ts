/**
 * The targets of `npm run bench:hunt` (pure data): each debate failure as a
 * user would point `fencecheck hunt` at it, knowing the lock, the client and
 * the resource, and at most which family of faults the question is about
 * ("without client pauses", "under a clock jump"), never the moment or the
 * script that shows it. Beside them the protected targets on which a hunt
 * must find nothing (a violation there is a false alarm).
 */
import type { FaultKind } from '../core/generator/nemesis-schedule.js';
import type { LockBackend, ResourceMode } from '../core/vocabulary.js';

export interface BenchTarget {
  id: string;
  /** What the debate says breaks (or holds). */
  what: string;
  backend: LockBackend;
  resource: ResourceMode;
  /** A client of clients/ by name or path (the hunt's --client), relative to the project. */
  client?: string;
  checkHold?: boolean;
  /** The fault family of the question; absent: every kind that applies (the hunt's default). */
  faults?: FaultKind[];
  /** A violation expected (the debate's failure) or none (a protected target: a violation is a false alarm). */
  expect: 'violation' | 'none';
}

export const BENCH_TARGETS: readonly BenchTarget[] = [
  {
    id: 'redlock-delay',
    what: 'npm `redlock` hands out an expired lock (resource none, network faults only: no client pause)',
    backend: 'redlock-npm',
    resource: 'none',
    faults: ['delay', 'partition', 'loss'],
    expect: 'violation',
  },
  { id: 'cas-unique', what: 'the unique-token check-and-set lets a late mark through (single Redis)', backend: 'redis', resource: 'cas-unique', expect: 'violation' },
  {
    id: 'etcd-go-mutex',
    what: "etcd's Go concurrency.Mutex grants on an expired lease (its revision claimed as a fence)",
    backend: 'etcd',
    resource: 'fence-claim',
    client: 'clients/go/etcd-mutex/etcd-mutex',
    expect: 'violation',
  },
  { id: 'sentinel-fence', what: 'redis-sentinel with the INCR fence loses an acknowledged lock in a failover', backend: 'redis-sentinel', resource: 'fence', expect: 'violation' },
  { id: 'redlock-clock', what: 'Redlock (ours) under a clock jump', backend: 'redlock', resource: 'none', faults: ['clock'], expect: 'violation' },
  { id: 'zk-careful', what: 'ZooKeeper with the careful client (--check-hold) acting past its session', backend: 'zookeeper', resource: 'none', checkHold: true, expect: 'violation' },
  { id: 'etcd-fence-claim', what: 'etcd (built-in client) with fence-claim: protected', backend: 'etcd', resource: 'fence-claim', expect: 'none' },
  { id: 'zk-fence-claim', what: 'ZooKeeper with fence-claim: protected', backend: 'zookeeper', resource: 'fence-claim', expect: 'none' },
  { id: 'redis-fence-claim', what: 'single-instance Redis with fence-claim: protected', backend: 'redis', resource: 'fence-claim', expect: 'none' },
];

export function benchTarget(id: string): BenchTarget {
  const t = BENCH_TARGETS.find((x) => x.id === id);
  if (!t) throw new Error(`unknown --target ${id}; one of ${BENCH_TARGETS.map((x) => x.id).join(', ')}`);
  return t;
}

/** The hunt's command line for one target and seed (without `node main.js`). */
export function huntArgv(t: BenchTarget, seed: number, budget: string, results: string): string[] {
  return [
    'hunt',
    '--backend', t.backend,
    '--resource', t.resource,
    ...(t.client !== undefined ? ['--client', t.client] : []),
    ...(t.checkHold ? ['--check-hold'] : []),
    ...(t.faults ? ['--faults', t.faults.join(',')] : []),
    '--budget', budget,
    '--seed', String(seed),
    '--results', results,
  ];
}
