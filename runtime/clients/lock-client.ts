import type { LockBackend } from '../../core/vocabulary.js';
import type { ClientRuntime } from './client-runtime.js';
import type { Token } from '../../core/checkers/lock/lock-ops.js';
/**
 * The lock client API: one implementation per backend, each a faithful,
 * plain use of that lock service as its documentation describes it.
 *
 * Lifecycle: `connect()` once (best effort: a client that cannot reach its
 * service yet still starts, and its ops fail), then `acquire` / `release` in
 * turn, `close()` at the end. A client holds at most one lock at a time.
 *
 * Outcomes: a method that returns, happened (`ok`). A method that throws an
 * OpError did not happen (`fail`) or may have happened (`info`); anything else
 * it throws is a bug and is answered `info`. An acquire waits for a held lock
 * until the call timeout (retrying or watching, as the backend's recipe
 * does), so it answers within about two call timeouts: attempts start until
 * the deadline and each attempt has its own call timeout.
 */

/** A fencing token (number: etcd, ZooKeeper, single Redis) or a unique token (string: Redlock): the history's. */
export type { Token };

export interface Acquired {
  token: Token;
  /** The TTL asked for. */
  lease_ms: number;
  /** Redlock: TTL − elapsed − drift, as the client computed it when it decided. */
  validity_ms?: number;
}

export interface LockClient {
  readonly backend: LockBackend;
  connect(): Promise<void>;
  acquire(ttlMs: number): Promise<Acquired>;
  /** Resolves when released; throws `fail not-held` when the lock was no longer ours. */
  release(): Promise<void>;
  /**
   * Why the current hold is known to be lost (the service or the client's own
   * lease timer said so), else undefined. A careful user stops touching the
   * resource then: the session does, answering `fail lock-lost`.
   */
  holdLost(): string | undefined;
  close(): Promise<void>;
}

export interface LockClientOptions {
  /** `host:port` of each server. */
  endpoints: readonly string[];
  lockName: string;
  callTimeoutMs: number;
  /** ZooKeeper's session timeout (the lease), ms. */
  sessionTimeoutMs?: number;
  /** redis-sentinel: replicas WAIT must report after a grant (0 or absent: no WAIT). */
  waitReplicas?: number;
  /** A line to the client's log (stderr). */
  log: (line: string) => void;
  /** Clock, randomness and transports (client-runtime.ts); absent: the real ones. */
  runtime?: ClientRuntime;
}

export function parseEndpoint(endpoint: string): { host: string; port: number } {
  const i = endpoint.lastIndexOf(':');
  const port = Number(endpoint.slice(i + 1));
  if (i <= 0 || !Number.isInteger(port) || port <= 0 || port > 65535) throw new RangeError(`Expected an endpoint \`host:port\`, got \`${endpoint}\``);
  return { host: endpoint.slice(0, i), port };
}

/** A revision or zxid as a number when exact, else as its decimal string (the checkers compare both). */
export function tokenFromDecimal(s: string): Token {
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : s;
}
