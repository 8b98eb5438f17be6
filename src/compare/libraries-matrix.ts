/**
 * The comparison of every reference lock client, as data: which library runs
 * on which cluster, what it exposes as a token and how it handles its lease
 * (read from its source for its reference client in clients/, where the
 * reading is written out), and one comparison per cluster (a part), each
 * sized to one short hold of the machine's cluster queue. `npm run libraries`
 * runs the parts through `fencecheck compare`, merges them and writes
 * docs/libraries.md from the result; nothing here is a verdict.
 */
import type { LockBackend, ResourceMode } from '../../core/vocabulary.js';

export interface LibraryFacts {
  /** The registry name (runtime/runner/client-registry.ts), or `builtin` for fencecheck's own client. */
  client: string;
  /** The cluster it runs on (a client on two clusters is two rows). */
  backend: LockBackend;
  language: 'Python' | 'Go' | 'Java' | 'Node';
  /** The library and what of it is used. */
  library: string;
  /** The reference client's file. */
  file: string;
  /** What its token is, from its source. */
  token: string;
  /** How it handles its lease (TTL, refresh, session), from its source. */
  lease: string;
  /** The lease in a few words, for the table. */
  leaseShort: string;
  /** Why no fault fencecheck injects reaches this library's danger, where that is so (said beside an untested cell). */
  unreachable?: string;
}

const PY = 'Python';
const NODE = 'Node';

export const LIBRARIES: readonly LibraryFacts[] = [
  {
    client: 'redis-py',
    backend: 'redis',
    language: PY,
    library: 'redis-py 4.3.4 `Lock`',
    file: 'clients/python/redis_py_client.py',
    token: "unique: `uuid.uuid1().hex` stored as the key's value (`lock.local.token`, redis/lock.py); nothing ordered, no fencing token.",
    lease: "`SET NX PX timeout`; never refreshed by itself (`extend()` / `reacquire()` are the caller's to call); release is a Lua compare-and-delete.",
    leaseShort: 'TTL, not refreshed',
  },
  {
    client: 'tooz-redis',
    backend: 'redis',
    language: PY,
    library: 'tooz 3.1.0 redis driver (redis-py 4.3.4)',
    file: 'clients/python/tooz_client.py',
    token: "none: tooz's `Lock.acquire` returns a bool; the redis-py Lock it wraps keeps its UUID private.",
    lease:
      "`lock_timeout` (whole seconds); the coordinator's heartbeat thread calls redis-py's `reacquire()` on held locks (tooz/drivers/redis.py), so a paused process stops refreshing.",
    leaseShort: 'TTL, heartbeat thread',
  },
  {
    client: 'redis-semaphore',
    backend: 'redis',
    language: NODE,
    library: 'redis-semaphore 5.8.0 `Mutex` (ioredis 5.9.2)',
    file: 'clients/node/redis-semaphore-mutex.mjs',
    token: "unique: `mutex.identifier`, a random UUID stored as the key's value; nothing ordered.",
    lease:
      'refreshes itself every 0.8 × lockTimeout (lib/Lock.js `setInterval`); its default `onLockLost` throws an unhandled error, and a refresh whose command fails (a partition) is an unhandled rejection that ends the process.',
    leaseShort: 'TTL, self-refreshed',
  },
  {
    client: 'simple-redis-mutex',
    backend: 'redis',
    language: NODE,
    library: 'simple-redis-mutex 3.0.0 `tryLock` (node-redis 5.9.0)',
    file: 'clients/node/simple-redis-mutex.mjs',
    token:
      'monotonic (announced): `release.fencingToken`, an `INCR` of one global counter sent *after* the `SET NX` succeeded, as a second command: token order is the order of the INCRs, not of the grants.',
    lease:
      "`timeout` (default 30 s), never refreshed; `lock()`'s `failAfter` abandons an attempt already sent, which can leave the key set with no owner until it expires.",
    leaseShort: 'TTL, not refreshed',
  },
  {
    client: 'redis-semaphore-redlock',
    backend: 'redlock',
    language: NODE,
    library: 'redis-semaphore 5.8.0 `RedlockMutex` (ioredis 5.9.2)',
    file: 'clients/node/redis-semaphore-redlock.mjs',
    token: 'unique: the same UUID identifier on every node.',
    lease:
      'returns as soon as a quorum of `SET NX` said OK, with no validity (elapsed time, drift) check, and counts a node\'s error as a "no" without saying so; refreshed every 0.8 × lockTimeout on the quorum.',
    leaseShort: 'TTL on a quorum, self-refreshed',
  },
  {
    client: 'sesamecare-redlock',
    backend: 'redlock',
    language: NODE,
    library: '@sesamecare-oss/redlock 1.4.0 (ioredis 5.9.2)',
    file: 'clients/node/sesamecare-redlock.mjs',
    token: 'unique: `lock.value`, 16 random bytes in hex.',
    lease:
      'computes `expiration` (TTL minus drift) but never checks it after the quorum: a lock that expired while its acquirer was paused is still returned; extended only inside `using()` (not used by `acquire`).',
    leaseShort: 'TTL on a quorum, not refreshed',
  },
  {
    client: 'redis-py-sentinel',
    backend: 'redis-sentinel',
    language: PY,
    library: 'redis-py 4.3.4 `Lock` over `Sentinel.master_for`',
    file: 'clients/python/redis_py_sentinel_client.py',
    token: 'unique: the same UUID as on one node.',
    lease:
      'as on one node (`SET NX PX`, never refreshed), on whichever master the Sentinels name; a grant not yet replicated is lost when that master fails over (Redis replication is asynchronous).',
    leaseShort: 'TTL, not refreshed',
  },
  {
    client: 'python-etcd3',
    backend: 'etcd',
    language: PY,
    library: 'python-etcd3 0.12.0 `Lock`',
    file: 'clients/python/etcd3_client.py',
    token: 'unique: `lock.uuid`, random bytes put under `/locks/<name>`; the winning revision is dropped (its source: "TODO: save the created revision").',
    lease:
      "a lease of `ttl` granted per acquire and **not kept alive** (etcd3/locks.py: `refresh()` is the caller's to call): a hold ends after its TTL whatever the holder does. With Debian's tenacity 8.2 it never waits for a held lock (a TypeError after the first try).",
    leaseShort: 'etcd lease, not kept alive',
  },
  {
    client: 'etcd-mutex',
    backend: 'etcd',
    language: 'Go',
    library: 'etcd `clientv3/concurrency` `Session` + `Mutex` 3.4.23 (Go 1.19)',
    file: 'clients/go/etcd-mutex/main.go',
    token: "monotonic: `Mutex.Header().Revision`, the revision at which `Lock` decided (the key's own revision `myRev` is unexported).",
    lease:
      "one `Session` per process, its lease kept alive by a goroutine (TTL = the run's); after waiting for its predecessors, `Lock` returns without re-checking that its own key (and lease) still exists (etcd-io/etcd#11456, unfixed in 3.4.23).",
    leaseShort: 'etcd session lease, kept alive',
  },
  {
    client: 'etcd3-lock',
    backend: 'etcd',
    language: NODE,
    library: 'etcd3 1.1.2 `client.lock(name)` (@grpc/grpc-js 1.14.7)',
    file: 'clients/node/etcd3-lock.mjs',
    token:
      "unique: `lock.leaseId()` (etcd 3.4 builds lease ids per member, so they do not grow across members); the transaction's revision, which would be a fencing token, is dropped by `acquire()`.",
    lease:
      'a lease per acquire, kept alive by the library every TTL/3 (lib/lease.js); `acquire()` never waits: it throws at once when the key exists; release revokes the lease.',
    leaseShort: 'etcd lease, kept alive',
  },
  {
    client: 'tooz-etcd3gw',
    backend: 'etcd',
    language: PY,
    library: 'tooz 3.1.0 etcd3gw driver (etcd3gw 2.0.0)',
    file: 'clients/python/tooz_client.py',
    token: 'none: a create-revision-0 transaction with a uuid4 value (its source: "TODO(jd): save the created revision"), nothing exposed.',
    lease: "a lease of `lock_timeout` s refreshed by the coordinator's heartbeat thread (tooz/drivers/etcd3gw.py `_lease.refresh()`).",
    leaseShort: 'etcd lease, heartbeat thread',
  },
  {
    client: 'kazoo',
    backend: 'zookeeper',
    language: PY,
    library: 'kazoo 2.8 `Lock`',
    file: 'clients/python/kazoo_client.py',
    token: 'monotonic: the sequence number of the contender znode (`lock.node`), which grows per lock parent.',
    lease:
      "the ZooKeeper session (`timeout` = the run's TTL): an ephemeral sequential znode that goes when the session expires; kazoo heartbeats from a thread, so a paused process lets it expire.",
    leaseShort: 'ZooKeeper session',
  },
  {
    client: 'curator',
    backend: 'zookeeper',
    language: 'Java',
    library: 'Apache Curator 5.4.0 `InterProcessMutex` (OpenJDK 17)',
    file: 'clients/java/CuratorMutexClient.java',
    token: "none: the lock node's path (whose sequence would be one) is behind the protected `getLockPath()`.",
    lease: "the ZooKeeper session (`sessionTimeoutMs` = the run's TTL), an ephemeral sequential node; `ConnectionStateListener` is the caller's to watch.",
    leaseShort: 'ZooKeeper session',
  },
  {
    client: 'tooz-zookeeper',
    backend: 'zookeeper',
    language: PY,
    library: 'tooz 3.1.0 zookeeper driver (kazoo 2.8)',
    file: 'clients/python/tooz_client.py',
    token: "none: wraps kazoo's Lock and exposes no node.",
    lease: "the kazoo session (`timeout` = the run's TTL).",
    leaseShort: 'ZooKeeper session',
  },
  {
    client: 'tooz-memcached',
    backend: 'memcached',
    language: PY,
    library: 'tooz 3.1.0 memcached driver (pymemcache 3.5.2)',
    file: 'clients/python/tooz_client.py',
    token:
      "none: `add(key, member_id, expire)`, the value being the coordinator's member id (the same for every grant of a process); released by a non-atomic get-then-delete.",
    lease:
      '`lock_timeout` s, `touch`ed by the heartbeat thread (tooz/drivers/memcached.py); memcached may evict the key under memory pressure whatever its expiry.',
    leaseShort: 'expiry, heartbeat touch; evictable',
  },
  {
    client: 'builtin',
    backend: 'pg-advisory',
    language: NODE,
    library: "PostgreSQL 15 session-level advisory locks (node-postgres, fencecheck's built-in client)",
    file: 'runtime/clients/pg-advisory-client.ts',
    token:
      "monotonic: `nextval` of a sequence drawn in the grant's own statement (`CASE WHEN pg_try_advisory_lock(k) THEN nextval(…) END`); an advisory lock has no token of its own.",
    lease:
      '**none**: a session lock lasts until unlock or until the session ends (the server notices a dead client only when its TCP connection fails): a paused holder keeps it, but a session the server ends under a working holder (`idle_session_timeout`, `pg_terminate_backend`: the session-end fault) takes the lock from a holder that writes on, told only at its next statement on that session; its next acquire opens a new session.',
    leaseShort: 'none (the session)',
    unreachable:
      "a session lock has no lease, so a client pause does not hand it on (a paused holder keeps it, as would a cut-off one: the server keeps a silent session until its TCP connection fails), and a kill of the lock server ends every session at once, the holder's section (200 ms) ending long before the restarted server grants the lock again. What reaches the danger is the end of the holder's session while the holder works on (the session-end fault: `pg_terminate_backend`, as `idle_session_timeout` or an operator would); these runs did not catch a holder writing after its session ended",
  },
  {
    client: 'psycopg2-advisory',
    backend: 'pg-advisory',
    language: PY,
    library: 'psycopg2 2.9.5, PostgreSQL 15 session-level advisory locks',
    file: 'clients/python/psycopg2_advisory_client.py',
    token: 'monotonic: the same statement and sequence as the built-in client.',
    lease:
      '**none**, as the built-in client; its lock connection is asynchronous and polled against the call timeout, closed (ending the session) when it passes; a session the server ended is noticed at the next statement on it (the release), and the next acquire opens a new one.',
    leaseShort: 'none (the session)',
    unreachable:
      "a session lock has no lease, so a client pause does not hand it on (a paused holder keeps it, as would a cut-off one: the server keeps a silent session until its TCP connection fails), and a kill of the lock server ends every session at once, the holder's section (200 ms) ending long before the restarted server grants the lock again. What reaches the danger is the end of the holder's session while the holder works on (the session-end fault: `pg_terminate_backend`, as `idle_session_timeout` or an operator would); these runs did not catch a holder writing after its session ended",
  },
  {
    client: 'builtin',
    backend: 'pg-advisory-pooled',
    language: NODE,
    library: 'the built-in advisory-lock client through PgBouncer 1.x (transaction pooling)',
    file: 'runtime/clients/pg-advisory-client.ts',
    token: 'monotonic: the same sequence (it stays ordered behind the pooler: what breaks is the lock).',
    lease:
      'none; the session lock belongs to whichever server connection PgBouncer gave the statement, which it then gives to other clients (docs/lock-clients.md).',
    leaseShort: 'none (a pooled server session)',
  },
  {
    client: 'psycopg2-advisory',
    backend: 'pg-advisory-pooled',
    language: PY,
    library: 'psycopg2 2.9.5 through PgBouncer (transaction pooling)',
    file: 'clients/python/psycopg2_advisory_client.py',
    token: 'monotonic: the same sequence.',
    lease: 'none; as the built-in client behind the pooler.',
    leaseShort: 'none (a pooled server session)',
  },
];

/** Not measured, and why. */
export const LIBRARIES_LEFT_OUT = [
  '`redlock-universal`: every published version (0.6.5 to 0.8.5) declares `engines.node >=22.0.0`; fencecheck runs on Node 20, so it is not pinned or measured here.',
  "npm `redlock` 5 (the built-in `redlock-npm` client): not a reference client but fencecheck's own; its expired-lock grant is scenario S5 (docs/debate.md) and a hunt target (docs/hunt.md).",
];

/** The run options every part shares: short runs (a pause of 2 × TTL fits twice), a short recovery. */
export const LIBRARIES_RUN_ARGS = ['--time-limit', '12', '--interval-ms', '3000', '--duration-ms', '4000', '--recover-ms', '2000'] as const;

/** One comparison of the libraries: one cluster, its clients, resource modes and fault columns. */
export interface LibrariesPart {
  /** The cluster, and its directory's name under the libraries' compare directory. */
  name: LockBackend;
  clients: readonly string[];
  resources: readonly ResourceMode[];
  nemeses: readonly string[];
  seeds: number;
  /** Options of this part only. */
  args?: readonly string[];
}

const RESOURCES: readonly ResourceMode[] = ['none', 'fence-claim', 'cas-unique'];

/**
 * One part per cluster, each one hold of the cluster queue on a warm pool (compare keeps one cluster per
 * backend), sized to 2-8 minutes on a shared 2-core machine (runs of about 30 s measured). Every part has the
 * client pause (a holder paused past its lease: the danger of every leased lock); beside it the fault that
 * reaches the cluster's own danger: kill -9 of a Redis without persistence (the key is gone), a partition
 * (a session or lease lost while its holder still works; for etcd, ZooKeeper, Redlock), a kill of the Sentinels' master
 * (replication is asynchronous), for the advisory lock a kill of its
 * server or pooler and the end of the holder's session (session-end: the server ends it under a working holder). One seed where the part is big, two where
 * it is small. memcached gets its own danger beside a partition: eviction (the evict fault lowers its memory
 * limit at run time and fills the lock key's slab class: runtime/nemesis/memcached-pressure.ts).
 */
export const LIBRARIES_PARTS: readonly LibrariesPart[] = [
  {
    name: 'redis',
    clients: ['redis-py', 'tooz-redis', 'redis-semaphore', 'simple-redis-mutex'],
    resources: RESOURCES,
    nemeses: ['client-pause', 'kill'],
    seeds: 1,
  },
  { name: 'redlock', clients: ['redis-semaphore-redlock', 'sesamecare-redlock'], resources: RESOURCES, nemeses: ['client-pause', 'partition'], seeds: 1 },
  {
    name: 'redis-sentinel',
    clients: ['redis-py-sentinel'],
    resources: RESOURCES,
    nemeses: ['client-pause', 'kill'],
    seeds: 2,
    args: ['--nemesis-target', 'master'],
  },
  {
    name: 'etcd',
    clients: ['python-etcd3', 'etcd-mutex', 'etcd3-lock', 'tooz-etcd3gw'],
    resources: RESOURCES,
    nemeses: ['client-pause', 'partition'],
    seeds: 1,
  },
  { name: 'zookeeper', clients: ['kazoo', 'curator', 'tooz-zookeeper'], resources: RESOURCES, nemeses: ['client-pause', 'partition'], seeds: 1 },
  { name: 'memcached', clients: ['tooz-memcached'], resources: RESOURCES, nemeses: ['client-pause', 'partition', 'evict'], seeds: 2 },
  { name: 'pg-advisory', clients: ['builtin', 'psycopg2-advisory'], resources: RESOURCES, nemeses: ['client-pause', 'kill', 'session-end'], seeds: 1 },
  { name: 'pg-advisory-pooled', clients: ['builtin', 'psycopg2-advisory'], resources: RESOURCES, nemeses: ['client-pause', 'kill', 'session-end'], seeds: 1 },
];
