/**
 * The npm lock libraries' comparison, as data: which reference clients, which
 * resource modes and faults, and what each library exposes as a token (read from
 * its source for its reference client in clients/node, where the reading is
 * written out). `npm run libraries` runs this matrix through `fencecheck compare`
 * and writes docs/libraries.md from the result; nothing here is a verdict.
 */
import type { ResourceMode } from '../../core/vocabulary.js';

export interface LibraryFacts {
  /** The registry name (workloads/runner/client-registry.ts). */
  client: string;
  /** The npm package and what of it is used. */
  library: string;
  /** The reference client's file. */
  file: string;
  /** What its token is, from its source. */
  token: string;
}

export const LIBRARIES: readonly LibraryFacts[] = [
  {
    client: 'redis-semaphore',
    library: '`redis-semaphore` 5.8.0 `Mutex` (ioredis 5.9.2)',
    file: 'clients/node/redis-semaphore-mutex.mjs',
    token: 'unique: `mutex.identifier`, a random UUID stored as the key\'s value; nothing ordered. It refreshes its lock every 0.8 × lockTimeout by itself; its default `onLockLost` throws an unhandled error, and a refresh whose Redis command fails (a partition) is an unhandled rejection that ends the process.',
  },
  {
    client: 'simple-redis-mutex',
    library: '`simple-redis-mutex` 3.0.0 `tryLock` (node-redis 5.9.0)',
    file: 'clients/node/simple-redis-mutex.mjs',
    token: 'monotonic (announced): `release.fencingToken`, an `INCR` of one global counter sent *after* the `SET NX` succeeded, as a second command: token order is the order of the INCRs, not of the grants. `lock()`\'s `failAfter` abandons an attempt already sent, which can leave the key set with no owner until its timeout.',
  },
  {
    client: 'redis-semaphore-redlock',
    library: '`redis-semaphore` 5.8.0 `RedlockMutex` (ioredis 5.9.2)',
    file: 'clients/node/redis-semaphore-redlock.mjs',
    token: 'unique: the same UUID identifier on every node. It returns as soon as a quorum of `SET NX` said OK, with no validity (elapsed time, drift) check, and counts a node\'s error as a "no" without saying so.',
  },
  {
    client: 'sesamecare-redlock',
    library: '`@sesamecare-oss/redlock` 1.4.0 (ioredis 5.9.2)',
    file: 'clients/node/sesamecare-redlock.mjs',
    token: 'unique: `lock.value`, 16 random bytes in hex. Like npm `redlock` 5 it computes `expiration` but never checks it after the quorum: a lock that expired while its acquirer was paused is still returned.',
  },
  {
    client: 'etcd3-lock',
    library: '`etcd3` 1.1.2 `client.lock(name)` (@grpc/grpc-js 1.14.7)',
    file: 'clients/node/etcd3-lock.mjs',
    token: 'unique: `lock.leaseId()`, the lease id (etcd 3.4 builds lease ids per member, so they do not grow across members). The transaction\'s revision, which would be a fencing token, is dropped by `acquire()`. `acquire()` never waits: it throws at once when the key exists.',
  },
];

/** Not measured, and why (the issue named it). */
export const LIBRARIES_LEFT_OUT = [
  '`redlock-universal`: every published version (0.6.5 to 0.8.5) declares `engines.node >=22.0.0`; fencecheck runs on Node 20, so it is not pinned or measured here.',
];

/** One comparison of the libraries: which clients, resource modes and fault columns. */
export interface LibrariesPart {
  /** Its directory's name under the libraries' compare directory. */
  name: string;
  clients: readonly string[];
  resources: readonly ResourceMode[];
  nemeses: readonly string[];
}

/**
 * Every library under a paused client and a partition, unprotected, fenced (where the token is
 * monotonic) and check-and-set on the unique token; then a paused server for the libraries whose
 * lease handling differs there (redis-semaphore's self-refresh, the two Redlocks' quorum over
 * independent nodes, the etcd lease's keep-alive), unprotected only. Sized to finish within 30
 * minutes on a shared 2-core machine at 2 seeds: 52 runs of about 22 s, 19m16s measured on 2026-11-30.
 */
export const LIBRARIES_PARTS: readonly LibrariesPart[] = [
  { name: 'main', clients: LIBRARIES.map((l) => l.client), resources: ['none', 'fence-claim', 'cas-unique'], nemeses: ['client-pause', 'partition'] },
  { name: 'server-pause', clients: ['redis-semaphore', 'redis-semaphore-redlock', 'sesamecare-redlock', 'etcd3-lock'], resources: ['none'], nemeses: ['server-pause'] },
];
