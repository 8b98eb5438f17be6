/**
 * The protocol between the runner and a lock client process.
 *
 * Each client is its own OS process inside its own network namespace (so the
 * nemesis can SIGSTOP it, like a GC pause, or partition it like a host). The
 * runner writes one JSON request per line to the client's stdin; the client
 * answers each with one JSON line on stdout carrying the same `id`. Anything
 * else a client wants to say goes to stderr (the runner logs it).
 *
 * Times are taken by the runner (invoke when it writes the request, complete
 * when it reads the answer), on its monotonic clock: a client paused between
 * the two simply makes the interval longer, which is the truth.
 *
 * Every answer maps the outcome as Jepsen does: `ok` it happened, `fail` it
 * definitely did not happen, `info` it may have happened. The client decides,
 * and its code says why each error is definite.
 *
 * This is a public, versioned contract (docs/client-protocol.md): a client in
 * any language speaks it. The resource's SQL travels in each access request
 * (`statements`), so a foreign client binds its token and runs it, and never
 * re-implements the resource modes.
 */
import type { Value } from './history/op.js';

import type { LockBackend, ResourceMode } from './vocabulary.js';

/** How a client process is configured: passed as JSON in the FC_CLIENT_CONFIG environment variable. */
export interface ClientConfig {
  /** The worker index (0-based); used in logs and unique values. */
  client: number;
  backend: LockBackend;
  /** The lock service's endpoints, `host:port`. One for redis, five for redlock, three for etcd and zookeeper, the three Sentinels for redis-sentinel. */
  lockEndpoints: string[];
  /** The lock's name (a Redis key, an etcd key prefix, a ZooKeeper parent path). */
  lockName: string;
  resource: ResourceMode;
  /** PostgreSQL: host, port, user, database. */
  pg: { host: string; port: number; user: string; database: string };
  /** The resource row's key in the `files` table. */
  resourceKey: string;
  /** Per-call timeout against the lock service and the resource, ms (small against the TTL). */
  callTimeoutMs: number;
  /** ZooKeeper session timeout, ms (the lease). */
  sessionTimeoutMs?: number;
  /**
   * A careful client: before each resource access, ask the lock library
   * whether the hold is known lost (etcd lease not renewed in time, ZooKeeper
   * session suspended) and refuse to send it. Off by default: most lock users
   * (and Jepsen's clients) do not, and Kleppmann's point is that such a check
   * only narrows the window (a pause can fall between the check and the write).
   */
  checkHold?: boolean;
  /** redis-sentinel: `WAIT n` after each grant; fewer replicas acknowledging refuses the grant. */
  waitReplicas?: number;
}

/** The protocol version this fencecheck speaks; a client announces its own in the ready line. */
export const PROTOCOL_VERSION = 1;

/** What a client's tokens are: ordered numbers (fencing tokens), unique strings, or nothing at all. */
export type ClientTokenKind = 'monotonic' | 'unique' | 'none';
export const CLIENT_TOKEN_KINDS: readonly ClientTokenKind[] = ['monotonic', 'unique', 'none'];

/**
 * A statement parameter: a text value (or SQL NULL), or the client's current
 * token, which the client binds itself as decimal text (`fence`: it must be a
 * non-negative integer, else the access fails `no-fencing-token` with nothing
 * sent; `unique`: any token, else `no-token`).
 */
export type StatementParam = string | null | { token: 'fence' | 'unique' };

/**
 * One SQL statement of an access, run in order on the client's own
 * connection. When it matches no row the access is rejected (a definite
 * `fail`, outcome `rejected`) with the code `rejectIfNoRow`, and the later
 * statements are not run. A `readOnly` statement changes nothing, so any
 * failure of it is a definite `fail` too.
 */
export interface Statement {
  sql: string;
  params: StatementParam[];
  rejectIfNoRow: string;
  readOnly?: boolean;
  /**
   * A transaction's edge (feature `transactions`): `begin` opens a
   * transaction that may stay open across requests, `commit` ends it. Their
   * row count is not checked. While a transaction is open, a failing or
   * rejected access makes the client roll it back before it answers, and
   * any failure before the `commit` is a definite `fail` (nothing commits
   * before it); only the `commit` itself can be `info`.
   */
  control?: 'begin' | 'commit';
}

/**
 * What a client announces beyond protocol 1's core: `transactions` (the
 * `control` statements above, and the `version` column returned in an
 * answer), which the version and for-update modes need.
 */
export type ClientFeature = 'transactions';

/** The accesses to the resource; each carries its statements (empty: the access does not apply, `fail not-applicable`). */
export type AccessOp = 'read' | 'write' | 'mark' | 'final-read';

export type ClientRequest =
  | { id: number; op: 'acquire'; ttlMs: number }
  | { id: number; op: 'release' }
  | { id: number; op: 'read'; statements: Statement[] }
  | { id: number; op: 'write'; value: Value; statements: Statement[] }
  | { id: number; op: 'mark'; statements: Statement[] }
  | { id: number; op: 'final-read'; statements: Statement[] }
  | { id: number; op: 'shutdown' };

export type ClientOp = ClientRequest['op'];

export type AccessOutcome = 'accepted' | 'rejected' | 'unknown';

export interface ClientAnswer {
  id: number;
  type: 'ok' | 'fail' | 'info';
  /** The result: the data read; null otherwise. */
  value?: Value;
  /** Why it failed or is unknown, short: `timeout`, `not-held`, `fenced`, `connection-lost`, ... */
  error?: string;
  /** The fencing token (number for etcd / ZooKeeper / redis INCR) or unique token (redlock) of the hold this op ran under. */
  token?: number | string;
  /**
   * Resource accesses: what the resource did. `rejected` only for its refusal (a statement matched no row);
   * `unknown` for an info and for a fail caused by an error. Absent, the runner records ok as accepted, fail
   * as rejected (a refusal) and info as unknown (docs/client-protocol.md, "outcome on an access").
   */
  outcome?: AccessOutcome;
  /** The resource's fence after the access, when known: a JSON integer, informative (no checker decides by it). */
  fence?: number;
  /** The row's version column after the access, when the last statement returns it (mode version). */
  version?: number;
  /** acquire: the TTL asked for, and (redlock) the validity the client computed. */
  lease_ms?: number;
  validity_ms?: number;
  /**
   * When the client began to process the request: process.hrtime.bigint() as
   * decimal text. CLOCK_MONOTONIC is one clock for every process on the machine
   * (and the clock library shifts only the wall clock), so the runner can place
   * it on its own time line: a request that waited in a paused client's pipe
   * cannot have taken effect before this instant.
   */
  started_ns?: string;
}

/** The first line a client prints once connected and ready: the protocol it speaks, its token kind, its library versions. */
export interface ClientReady {
  ready: true;
  protocol: number;
  token: ClientTokenKind;
  versions: Record<string, string>;
  /** Optional features it speaks (absent: none). */
  features?: ClientFeature[];
}

/** A broken protocol, with the tail of the client's stderr. */
export interface ProtocolViolation {
  client: string;
  problem: string;
  stderrTail: string[];
}
