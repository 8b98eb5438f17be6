/**
 * The targets of `npm run bench:hunt` (pure data): each debate failure as a
 * user would point `fencecheck hunt` at it, knowing the lock, the client and
 * the resource, and at most which family of faults the question is about
 * ("without client pauses", "under a clock jump"), never the moment or the
 * script that shows it. Beside them the protected targets on which a hunt
 * must find nothing (a violation there is a false alarm).
 */
import type { FaultKind } from '../core/generator/faults/registry.js';
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
  /** The hunt's --redis-persistence (Redis targets). */
  redisPersistence?: 'aof-always';
  /** The hunt's --want: only a violation showing this sign is the find (the lock's own failure, not one every lease has). */
  want?: 'valid-double-hold';
  /** The fault family of the question; absent: every kind that applies (the hunt's default). */
  faults?: FaultKind[];
  /** A violation expected (the debate's failure) or none (a protected target: a violation is a false alarm). */
  expect: 'violation' | 'none';
  /**
   * Where a violation of the target can also come from a failure every lease
   * has (a write landed late on an unfenced resource), the sign that a find
   * is the debate's failure and not that one: the table counts the finds
   * that show it. Absent: every violation of the target is its failure (the
   * resource stops the generic ones, or the client claims to).
   */
  failure?: { sign: string; shown(find: FindFacts): boolean };
}

/** What the table knows of a finding try: its fault arms and its near miss. */
export interface FindFacts {
  arms: readonly string[];
  miss: {
    expiredGrants?: number;
    lostGrants?: number;
    tokenRegressions?: number;
    sleptGrants?: number;
    doubleHolds?: number;
    validDoubleHolds?: number;
  } | null;
}

export const BENCH_TARGETS: readonly BenchTarget[] = [
  {
    id: 'redlock-delay',
    what: 'npm `redlock` hands out an expired lock (resource none, network faults only: no client pause)',
    backend: 'redlock-npm',
    resource: 'none',
    faults: ['delay', 'partition', 'loss'],
    expect: 'violation',
    // A delayed write on an unfenced resource breaks the data under any lease; the library's own failure is the grant it hands out with no validity left.
    failure: { sign: 'a grant with no validity left', shown: (f) => (f.miss?.expiredGrants ?? 0) > 0 },
  },
  {
    id: 'cas-unique',
    what: 'the unique-token check-and-set lets a late mark through (single Redis)',
    backend: 'redis',
    resource: 'cas-unique',
    expect: 'violation',
  },
  {
    id: 'etcd-go-mutex',
    what: "etcd's Go concurrency.Mutex grants on an expired lease (its revision claimed as a fence)",
    backend: 'etcd',
    resource: 'fence-claim',
    client: 'clients/go/etcd-mutex/etcd-mutex',
    expect: 'violation',
  },
  // fence-claim, not fence: a write-only fence lets a paused holder's read-modify-write through on any lock (found so on seed 1); with the claim only a token the failover hands out twice breaks the data.
  {
    id: 'sentinel-fence',
    what: 'redis-sentinel with the INCR fence (claimed) loses an acknowledged lock in a failover',
    backend: 'redis-sentinel',
    resource: 'fence-claim',
    expect: 'violation',
  },
  {
    id: 'redlock-clock',
    what: 'Redlock (ours) under a clock jump',
    backend: 'redlock',
    resource: 'none',
    // Kleppmann's scenario (S3) is a split and a jump on the node both majorities share; a hunt's clock jump may also
    // strike several nodes at once (Jepsen's bump of a random subset): on a majority it needs no split.
    faults: ['clock', 'partition'],
    // With partitions an unfenced resource also breaks under a holder whose write lands after its validity (every
    // lease's failure, found first on 5 of 5 seeds): Redlock's own is two holders both inside their validity.
    want: 'valid-double-hold',
    expect: 'violation',
    failure: {
      sign: "two holders both within their grants' validity, with a clock jump in the try",
      shown: (f) => (f.miss?.validDoubleHolds ?? 0) > 0 && f.arms.some((a) => a.startsWith('clock@')),
    },
  },
  {
    id: 'zk-careful',
    what: 'ZooKeeper with the careful client (--check-hold) acting past its session',
    backend: 'zookeeper',
    resource: 'none',
    checkHold: true,
    expect: 'violation',
  },
  { id: 'etcd-fence-claim', what: 'etcd (built-in client) with fence-claim: protected', backend: 'etcd', resource: 'fence-claim', expect: 'none' },
  { id: 'zk-fence-claim', what: 'ZooKeeper with fence-claim: protected', backend: 'zookeeper', resource: 'fence-claim', expect: 'none' },
  // Without persistence a kill restarts Redis empty, its INCR counter too, and the same token goes to two holders: found so (2026-12-01, seed 1, two kills right after grants). With every write fsynced the counter survives a kill.
  {
    id: 'redis-fence-claim',
    what: 'single-instance Redis with fence-claim, the AOF fsynced on every write: protected',
    backend: 'redis',
    resource: 'fence-claim',
    redisPersistence: 'aof-always',
    expect: 'none',
  },
  // A session lock has no lease to outlast: only the end of its session under a working holder (session-end) hands it on.
  {
    id: 'pg-advisory-none',
    what: "PostgreSQL's session advisory lock, no fence: the holder writes on after the server ended its session",
    backend: 'pg-advisory',
    resource: 'none',
    expect: 'violation',
  },
  {
    id: 'pg-advisory-fence-claim',
    what: "PostgreSQL's session advisory lock with fence-claim (its sequence token): protected",
    backend: 'pg-advisory',
    resource: 'fence-claim',
    expect: 'none',
  },
  {
    id: 'redis-fence-claim-volatile',
    what: 'single-instance Redis with fence-claim and no persistence: a kill hands its INCR tokens out again',
    backend: 'redis',
    resource: 'fence-claim',
    expect: 'violation',
  },
];

export function benchTarget(id: string): BenchTarget {
  const t = BENCH_TARGETS.find((x) => x.id === id);
  if (!t) throw new Error(`unknown --target ${id}; one of ${BENCH_TARGETS.map((x) => x.id).join(', ')}`);
  return t;
}

/** The hunt's command line for one target and seed (without `node main.js`). */
export function huntArgv(t: BenchTarget, seed: number, budget: string, results: string, o: { shrink?: boolean } = {}): string[] {
  return [
    'hunt',
    '--backend',
    t.backend,
    '--resource',
    t.resource,
    ...(t.client !== undefined ? ['--client', t.client] : []),
    ...(t.checkHold ? ['--check-hold'] : []),
    ...(t.redisPersistence ? ['--redis-persistence', t.redisPersistence] : []),
    ...(t.faults ? ['--faults', t.faults.join(',')] : []),
    ...(t.want ? ['--want', t.want] : []),
    '--budget',
    budget,
    '--seed',
    String(seed),
    '--results',
    results,
    // Runs-to-detection and time-to-detection are the hunt's own either way (hunt.json's clock); with `shrink` the
    // hunt shrinks its find on its warm lanes after it, as a user's hunt does.
    ...(o.shrink === true ? [] : ['--no-shrink']),
  ];
}
