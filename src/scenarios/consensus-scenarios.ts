/**
 * The scenarios of the article's closing consensus (issue 21), beyond the
 * 2016 debate: what "a single Redis lock for efficiency" costs in jobs run
 * twice (S12), the database's own concurrency control with no lock at all
 * (S13), a version column beside a fence behind a lock (S14), PostgreSQL
 * advisory locks behind PgBouncer (S15), and Redis run as a cache that
 * evicts the lock key (S16).
 *
 * Timings: S12 runs 30 s of the jobs workload with one 3 s pause of the
 * holder at 13 s: with 2 clients, one GC-sized pause per minute per client,
 * the fault rate its duplicates per hour are stated at. S13-S15 keep the
 * scenarios' 12 s; S16 holds 1 s so the filler traffic evicts a held key.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import type { EvictPolicy } from '../../core/generator/eviction.js';
import { PAUSE_SCRIPT, SHORT_WRITE_DELAY_SCRIPT } from './client-scenarios.js';
import { kills, pauses, timeline } from './fault-script.js';
import type { Scenario, ScenarioVariant, VariantOptions } from './scenario.js';

/** S12: one 3 s pause of the holder in 30 s, two clients: one pause per minute per client. */
export const JOBS_PAUSE_SCRIPT: FaultWindow[] = pauses([13_000], 3000);
const JOBS = { workload: 'jobs', timeLimitS: 30, holdMs: 200, rate: 2 } as const;

/** S13: every fault the database must ride out alone: the client inside its section paused, cut off from PostgreSQL, PostgreSQL killed. */
export const DB_FAULTS_SCRIPT: FaultWindow[] = timeline(
  pauses([1500], 3000),
  { at: 5500, until: 7500, fault: 'partition', target: { kind: 'partition', grudgeKind: 'client-from-resource', victim: { kind: 'holder' } } },
  kills([9000], 1000, 'pg1'),
);

/** S16: Redis as a cache (maxmemory + an eviction policy) under filler pressure twice, while a holder holds. */
export const evictScript = (policy: EvictPolicy): FaultWindow[] =>
  [2000, 7000].map((at): FaultWindow => ({ at, until: at + 3000, fault: 'evict', target: { kind: 'node', node: 'redis1' }, policy }));
export const EVICT_SCRIPT: FaultWindow[] = evictScript('allkeys-lru');

function variant(label: string, text: string, options: VariantOptions, expected?: ScenarioVariant['expected']): ScenarioVariant {
  return expected === undefined ? { label, text, options } : { label, text, options, expected };
}

export const S12: Scenario = {
  id: 'S12',
  title: 'A single Redis lock for efficiency: how rare is the double run?',
  claim:
    'For efficiency, one Redis instance with a TTL is fine: a lock that fails now and then only makes a job run twice, which wastes work but harms nothing. How often that happens, and what it costs, nobody measured.',
  predictions: {
    kleppmann:
      '"If you are only using the locks as an efficiency optimization … just use a single Redis instance": a double run is rare and cheap. Implied: every pause longer than the TTL in a holder\'s job runs it twice; with a fencing token checked by the resource, the second run\'s effect is refused.',
    antirez:
      'Agrees that a single instance is fine where an occasional double run is acceptable (implied: Redlock is for when it is not); a resource that checks a token (or a version) refuses the stale run.',
  },
  setup:
    "jobs workload (read the stream's position, do job n + 1 for 200 ms, record it done), 2 clients, TTL 1 s, 2 sections a second each, 30 s of workload. The holder is paused for 3 s at 13 s: one GC-sized pause per minute per client. Resource none (the job's record unguarded), fence-claim (the read claims the row with the INCR token, the record fenced) and version (a version column, a refused record is a wasted run); Redlock, etcd and ZooKeeper unguarded and with their fence (etcd's revision, ZooKeeper's sequence: fence-claim; Redlock's unique value: cas-unique). The rate: jobs done twice per 1,000 jobs, pooled over the seeds with Wilson's 95 % interval, and per hour at that fault rate.",
  recipe:
    "to see how often a single Redis lock runs a job twice under one GC-sized pause per minute per client (and a fence or a version column stop the second run's effect), run `sudo npx fencecheck scenario run S12` (`--seeds 5` for the measured rows)",
  variants: [
    variant(
      'redis-none',
      "single Redis, the job's record unguarded",
      { backend: 'redis', resource: 'none', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      { lock: 'unsafe', data: 'unsafe', why: "the lease expires in the pause, the next holder does the paused holder's job, and both record it" },
    ),
    variant(
      'redis-fence-claim',
      'single Redis, the INCR token claimed at the read and fenced at the record',
      { backend: 'redis', resource: 'fence-claim', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      {
        lock: 'unsafe',
        data: 'safe',
        why: "the next holder's claim raises the fence, so the paused holder's record is refused: a wasted run, not a duplicate",
      },
    ),
    variant(
      'redis-version',
      'single Redis, a version column checked at the record',
      { backend: 'redis', resource: 'version', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      { lock: 'unsafe', data: 'safe', why: "the next holder's record moved the version on, so the paused holder's record matches no row" },
    ),
    variant(
      'redlock-none',
      'Redlock, the record unguarded',
      { backend: 'redlock', resource: 'none', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      { lock: 'unsafe', data: 'unsafe', why: "Redlock's lease expires in the pause as a single Redis's does" },
    ),
    variant(
      'etcd-none',
      'etcd lease + txn, the record unguarded',
      { backend: 'etcd', resource: 'none', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      {
        lock: 'unsafe',
        data: 'unsafe',
        why: "a consensus lock's lease expires in the pause too (etcd raises the 1 s TTL to its 2 s minimum, still shorter than the pause)",
      },
    ),
    variant(
      'zookeeper-none',
      'ZooKeeper, the record unguarded',
      { backend: 'zookeeper', resource: 'none', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      { lock: 'unsafe', data: 'unsafe', why: 'the session expires in the pause and the next waiter is granted' },
    ),
    // With a fence too, so each lock is measured both ways (Redlock has no monotonic token: antirez's check-and-set, disputed as in S2b).
    variant('redlock-cas-unique', "Redlock, its unique value marked at the read and checked at the record (antirez's check-and-set)", {
      backend: 'redlock',
      resource: 'cas-unique',
      script: JOBS_PAUSE_SCRIPT,
      ...JOBS,
    }),
    variant(
      'etcd-fence-claim',
      "etcd, the key's revision claimed at the read and fenced at the record",
      { backend: 'etcd', resource: 'fence-claim', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      {
        lock: 'unsafe',
        data: 'safe',
        why: "the next holder's claim raises the fence above the paused holder's revision, so its record is refused: a wasted run",
      },
    ),
    variant(
      'zookeeper-fence-claim',
      'ZooKeeper, the zxid-ordered sequence claimed at the read and fenced at the record',
      { backend: 'zookeeper', resource: 'fence-claim', script: JOBS_PAUSE_SCRIPT, ...JOBS },
      { lock: 'unsafe', data: 'safe', why: "the next holder's claim raises the fence, so the expired session's record is refused" },
    ),
  ],
};

const NO_LOCK = { backend: 'none', script: DB_FAULTS_SCRIPT, idleTxTimeoutMs: 1500 } as const;

export const S13: Scenario = {
  id: 'S13',
  title: "No lock at all: the database's own concurrency control",
  claim:
    '"Better still, use the database\'s own concurrency control, such as conditional writes, SELECT … FOR UPDATE or version columns": no lock service, no lease to expire.',
  predictions: {
    kleppmann:
      'Safe under every fault: a conditional write (a version column) or a row lock held in a transaction decides at the data itself, where no pause, delay or clock can get between the check and the write (implied from his "compare-and-set" recommendation).',
    antirez:
      'If the resource can do check-and-set you do not need a distributed lock for correctness at all (his reply to the fencing argument); the lock was only for efficiency.',
  },
  setup:
    "lock-counter, 2 clients going straight to PostgreSQL (--backend none). The client inside its section is paused 3 s at 1.5 s, cut off from PostgreSQL from 5.5 to 7.5 s, and PostgreSQL is killed (SIGKILL) at 9 s and restarted 1 s later. version: read data and version, write WHERE version = the read one, a refused write retried (up to 5 times). for-update: BEGIN, SELECT … FOR UPDATE, hold, UPDATE, COMMIT; idle_in_transaction_session_timeout 1.5 s ends a paused client's session and frees its row lock. none: the unprotected control. The cost beside safety: sections per second, refusals, retries, section p99.",
  recipe:
    'to see a version column and SELECT … FOR UPDATE keep every update with no lock at all under a pause, a partition and a kill (and the same workload without them lose updates), run `sudo npx fencecheck scenario run S13` (`--seeds 5` for the measured rows)',
  variants: [
    variant(
      'none-none',
      'no lock, no protection: the control',
      { ...NO_LOCK, resource: 'none' },
      { data: 'unsafe', why: 'two clients read the same counter and both write it plus one' },
    ),
    variant(
      'none-version',
      'no lock, a version column',
      { ...NO_LOCK, resource: 'version' },
      { data: 'safe', why: 'a write whose read went stale matches no row and is retried' },
    ),
    variant(
      'none-for-update',
      'no lock, SELECT … FOR UPDATE in one transaction per section',
      { ...NO_LOCK, resource: 'for-update' },
      { data: 'safe', why: 'the row lock keeps the others waiting until the holder commits or the server ends its session' },
    ),
  ],
};

export const S14: Scenario = {
  id: 'S14',
  title: 'Behind a lock: a version column or a fencing token?',
  claim:
    'A lock with automatic release needs the resource to refuse the late holder. A monotonic fencing token does it where the resource can compare tokens; a version column does it with no token at all, so it works behind any lock (Redlock included).',
  predictions: {
    kleppmann:
      "A fence checked on every access is safe; a version column is the compare-and-set he recommends, safe too (implied). A fence checked only on the write lets a late write in before the next holder's.",
    antirez:
      'Where the resource can compare, a unique token or any check-and-set serves as well as a monotonic one: a version column needs no token (implied).',
  },
  setup:
    "lock-counter on single Redis and Redlock, 2 clients, TTL 1 s, hold 300 ms. S1's pauses (the holder stopped 3 s at 1.5, 5 and 8.5 s) and S6b's late write (the holder's write delayed 0.9 s, landing between the next holder's read and write). Resource version vs fence (write fenced) vs fence-claim (read and write fenced); Redlock has no monotonic token, so it is measured with version only.",
  recipe:
    'to compare a version column with a fencing token behind a lock under a pause and a late write, run `sudo npx fencecheck scenario run S14` (`--seeds 5` for the measured rows)',
  variants: [
    variant(
      'pause-version',
      'single Redis, version column, paused holder',
      { backend: 'redis', resource: 'version', script: PAUSE_SCRIPT },
      { data: 'safe', why: "the next holder's write moved the version on" },
    ),
    variant(
      'pause-fence',
      'single Redis, write fenced, paused holder',
      { backend: 'redis', resource: 'fence', script: PAUSE_SCRIPT },
      { data: 'safe', why: "the next holder's write raised the fence" },
    ),
    variant(
      'late-write-version',
      'single Redis, version column, late write',
      { backend: 'redis', resource: 'version', script: SHORT_WRITE_DELAY_SCRIPT, proxies: 'resource', callTimeoutMs: 4000 },
      { data: 'safe', why: "the late write carries the version its read saw, and the next holder's read saw the same: whichever writes second is refused" },
    ),
    variant('late-write-fence', 'single Redis, write fenced, late write', {
      backend: 'redis',
      resource: 'fence',
      script: SHORT_WRITE_DELAY_SCRIPT,
      proxies: 'resource',
      callTimeoutMs: 4000,
    }),
    variant(
      'late-write-fence-claim',
      'single Redis, read and write fenced, late write',
      { backend: 'redis', resource: 'fence-claim', script: SHORT_WRITE_DELAY_SCRIPT, proxies: 'resource', callTimeoutMs: 4000 },
      { data: 'safe', why: "the next holder's claiming read raised the fence before the late write arrived" },
    ),
    variant(
      'redlock-pause-version',
      'Redlock, version column, paused holder',
      { backend: 'redlock', resource: 'version', script: PAUSE_SCRIPT },
      { data: 'safe', why: 'a version column needs no token, so it protects behind Redlock too' },
    ),
  ],
};

/** S15: the holder paused 3 s twice, so the pooled lock is also tested across a pause. */
const ADVISORY_PAUSES: FaultWindow[] = pauses([2000, 7000], 3000);

/**
 * S15's session-end rows: the server ends the holder's session twice (as `idle_session_timeout`, an operator's
 * `pg_terminate_backend` or a pooler dropping the connection would), each time between the holder's read and its
 * write, so that its write still follows: the one danger a session lock has (a pause only makes the others wait).
 */
export const SESSION_END_SCRIPT: FaultWindow[] = [2000, 7000].map((at): FaultWindow => ({
  at,
  until: at + 1000,
  fault: 'session-end',
  target: { kind: 'holder' },
  trigger: { on: 'holder-read', withinMs: 2000 },
}));

export const S15: Scenario = {
  id: 'S15',
  title: 'PostgreSQL advisory locks behind PgBouncer',
  claim:
    "pg_try_advisory_lock is a session-level lock. Behind a transaction-pooling proxy, as PgBouncer is commonly deployed, a client's next statement may run on another server connection: the lock is taken on one backend and released, or looked for, on another (reported in several trackers in 2026).",
  predictions: {
    kleppmann: 'Not in the 2016 debate. Implied by his argument: a lock whose holder cannot tell it lost it is unsafe without a fence.',
    antirez: 'Not in the 2016 debate.',
  },
  setup:
    "lock-counter, 2 clients, hold 300 ms, the holder paused 3 s at 2 and 7 s. pg-advisory: the built-in client on its own PostgreSQL (pgl1), one session per process; pg-advisory-pooled: the same client through PgBouncer 1.18 (pgb1) in transaction pooling with 2 server connections. Resource none, and fence-claim with the nextval token drawn in the grant's statement. The session-end rows: instead of the pauses, the lock server ends the holder's session (pg_terminate_backend of the backend holding the advisory lock) from 2 s and from 7 s, each time once a holder has read and before it writes; its process lives on, and learns of it only at its next statement on that session.",
  recipe:
    "to see a session-level advisory lock fail mutual exclusion behind PgBouncer's transaction pooling (and hold without it, until the server ends the holder's session), run `sudo npx fencecheck scenario run S15` (`--seeds 5` for the measured rows)",
  variants: [
    variant(
      'direct-none',
      'pg-advisory on its own server, no fence',
      { backend: 'pg-advisory', resource: 'none', script: ADVISORY_PAUSES },
      { lock: 'safe', data: 'safe', why: 'a session lock has no lease: a paused holder keeps it, and the others wait' },
    ),
    variant('pooled-none', 'pg-advisory behind PgBouncer (transaction pooling), no fence', {
      backend: 'pg-advisory-pooled',
      resource: 'none',
      script: ADVISORY_PAUSES,
    }),
    variant('pooled-fence-claim', 'pg-advisory behind PgBouncer, nextval token claimed and fenced', {
      backend: 'pg-advisory-pooled',
      resource: 'fence-claim',
      script: ADVISORY_PAUSES,
    }),
    variant(
      'direct-session-end-none',
      "pg-advisory on its own server, the holder's session ended by the server, no fence",
      { backend: 'pg-advisory', resource: 'none', script: SESSION_END_SCRIPT },
      {
        lock: 'unsafe',
        data: 'unsafe',
        why: "the lock goes with its session: the waiter is granted at once, and the holder, not told, writes its stale count over the new holder's",
      },
    ),
    variant(
      'direct-session-end-fence-claim',
      "pg-advisory on its own server, the holder's session ended, nextval token claimed and fenced",
      { backend: 'pg-advisory', resource: 'fence-claim', script: SESSION_END_SCRIPT },
      { lock: 'unsafe', data: 'safe', why: "the new holder's claim raises the fence above the old session's token, so the untold holder's write is refused" },
    ),
  ],
};

const EVICT = { script: EVICT_SCRIPT, holdMs: 1000, rate: 3 } as const;

export const S16: Scenario = {
  id: 'S16',
  title: 'Redis run as a cache evicts the lock key',
  claim:
    'A Redis that is also a cache (maxmemory with an eviction policy) evicts keys under memory pressure; a lock key is a key like any other, so a held lock can vanish and be granted again.',
  predictions: {
    kleppmann: 'Not in the 2016 debate. Implied: a lock lost without its holder knowing is a double hold, unsafe without a fence, safe with one.',
    antirez: 'Not in the 2016 debate (Redis as a lock server is assumed not to evict its keys).',
  },
  setup:
    "lock-counter on single Redis, 2 clients, TTL 1 s, hold 1 s, 3 sections a second each. From 2 to 5 s and from 7 to 10 s the evict fault sets maxmemory just above Redis's use with an eviction policy and writes filler keys until stopped; the fault record (stop-evict, evicted) counts every evicted lock key. Resource none (allkeys-lru) vs fence-claim under volatile-lru (only keys with a TTL go: the lock key, not the INCR counter) and under allkeys-lru (the counter can go too).",
  recipe:
    'to see memory pressure evict a held lock key on a Redis run as a cache (a double hold), and a fence keep the data only while its token counter survives, run `sudo npx fencecheck scenario run S16` (`--seeds 5` for the measured rows)',
  variants: [
    variant(
      'redis-none',
      'single Redis as a cache (allkeys-lru), no fence',
      { backend: 'redis', resource: 'none', ...EVICT },
      { lock: 'unsafe', data: 'unsafe', why: 'the evicted key lets the next client acquire while the holder still holds' },
    ),
    // Measured 2026-12-01 (5 seeds): under allkeys-lru the INCR counter is evicted too, more than once in a run, so the
    // same token is handed to two holders, and a fence that must admit its own holder's equal token (fence <= token)
    // admits the other's too. The fence keeps the data only where the counter survives: volatile-lru (it has no TTL).
    variant(
      'redis-fence-claim',
      'single Redis as a cache (volatile-lru: the lock key has a TTL and goes, the INCR counter has none and stays), INCR token claimed and fenced',
      { backend: 'redis', resource: 'fence-claim', ...EVICT, script: evictScript('volatile-lru') },
      { lock: 'unsafe', data: 'safe', why: "the evicted lock key lets a second holder in, and its claim raises the fence above the first's token" },
    ),
    variant(
      'redis-fence-claim-allkeys',
      'single Redis as a cache (allkeys-lru: the INCR counter can go too), INCR token claimed and fenced',
      { backend: 'redis', resource: 'fence-claim', ...EVICT },
      {
        lock: 'unsafe',
        data: 'unsafe',
        why: 'the evicted counter starts again at 1 and hands out tokens already given: two holders with the same token both pass a fence that admits an equal one',
      },
    ),
  ],
};
