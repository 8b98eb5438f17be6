/**
 * A lock on PostgreSQL's session-level advisory locks: `pg_try_advisory_lock`
 * (retried until the call timeout, as SET NX is) and `pg_advisory_unlock`,
 * on one connection kept while its session lasts (the session the lock
 * belongs to). Used directly on its own server (`pg-advisory`, pgl1) and
 * through PgBouncer in transaction pooling mode (`pg-advisory-pooled`, pgb1),
 * with the same code: the pooled backend differs only in where it connects,
 * which is the point (teams move a working client behind a pooler).
 *
 * The token: a sequence (`fencecheck_lock_token`) drawn in the same statement
 * as the grant, `SELECT CASE WHEN pg_try_advisory_lock(k) THEN nextval(…) END`.
 * Why not none: an advisory lock has no token of its own, but a fence needs
 * one. Why it is monotonic in grant order: nextval runs only once the lock is
 * taken, and the next holder can take it only after this holder unlocked (or
 * its session ended), so each grant's nextval follows the previous grant's;
 * nextval is never rolled back, and after a crash a sequence resumes at or
 * beyond the last value it gave (it is WAL-logged ahead). The token stays
 * monotonic behind PgBouncer too: what breaks there is the lock, not the
 * order of the sequence.
 *
 * There is no lease: a session lock lasts until it is unlocked or its
 * session ends (the server notices a dead client only when its TCP
 * connection fails; the server or an operator may end it: the session-end
 * fault). `lease_ms` records the TTL asked for, which the server never
 * applies. holdLost() reports the connection's end: the server has then
 * released, or will release, the session's locks. The next acquire opens a
 * new session (as an application's pool reconnects; psycopg2's client does
 * the same); a release on an ended session fails, since the lock went with it.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Acquired, LockClient, LockClientOptions } from './lock-client.js';
import { parseEndpoint, tokenFromDecimal } from './lock-client.js';
import type { LockBackend } from '../../core/vocabulary.js';
import { failed } from './op-error.js';
import { pgOpError } from './pg-errors.js';
import { monotonicNow, retryDelayMs, sleep } from './time.js';

export const TOKEN_SEQUENCE = 'fencecheck_lock_token';

/** The statements (pure, exported for the tests and docs/lock-clients.md). */
export const PG_ADVISORY_SQL = {
  createSequence: `CREATE SEQUENCE IF NOT EXISTS ${TOKEN_SEQUENCE}`,
  tryLock: `SELECT CASE WHEN pg_try_advisory_lock($1::bigint) THEN nextval('${TOKEN_SEQUENCE}') END AS token`,
  unlock: 'SELECT pg_advisory_unlock($1::bigint) AS released',
} as const;

/** SQLSTATEs of a CREATE … IF NOT EXISTS that raced another client's: the sequence exists, which is all we need. */
const ALREADY_CREATED = new Set(['23505', '42P07']);

/** The advisory lock's bigint key from the lock name: the first 8 bytes of its SHA-256, signed (pure). */
export function advisoryKey(lockName: string): string {
  return BigInt.asIntN(64, createHash('sha256').update(lockName).digest().readBigUInt64BE(0)).toString();
}

export class PgAdvisoryLockClient implements LockClient {
  readonly backend: LockBackend;
  private client: pg.Client;
  private readonly endpoint: { host: string; port: number };
  private readonly key: string;
  private held = false;
  private ended: string | undefined;

  constructor(
    private readonly o: LockClientOptions,
    backend: LockBackend = 'pg-advisory',
  ) {
    this.backend = backend;
    const [endpoint] = o.endpoints;
    if (endpoint === undefined) throw new RangeError(`${backend} needs one endpoint`);
    this.endpoint = parseEndpoint(endpoint);
    this.key = advisoryKey(o.lockName);
    this.client = this.newSession();
  }

  /** A connection, and with it a session of its own: its locks are its alone, and end with it. */
  private newSession(): pg.Client {
    const { host, port } = this.endpoint;
    const client = new pg.Client({
      host,
      port,
      user: 'postgres',
      database: 'postgres',
      connectionTimeoutMillis: this.o.callTimeoutMs,
      query_timeout: this.o.callTimeoutMs,
    });
    // The session is the lock's owner: once its connection is gone that session never comes back.
    const end = (why: string) => {
      if (client !== this.client) return;
      if (this.ended === undefined) this.o.log(`postgres ${host}:${port}: ${why}`);
      this.ended ??= why;
    };
    client.on('error', (err) => end(`connection error: ${err.message}`));
    client.on('end', () => end('connection ended'));
    return client;
  }

  /**
   * Best effort, as every lock client's (client-main.ts): a server that cannot be reached within the call
   * timeout leaves the session ended, and the first acquire opens a new one (or fails as an op). Until
   * 2026-12-06 the error escaped and the client process crashed (exit 255) before its ready line.
   */
  async connect(): Promise<void> {
    try {
      await this.openSession();
    } catch (err) {
      this.ended ??= `connect failed: ${err instanceof Error ? err.message : String(err)}`;
      this.o.log(`postgres ${this.endpoint.host}:${this.endpoint.port}: ${this.ended}; the first acquire connects again`);
    }
  }

  /** The session's connection, and the token sequence it draws from (created by whichever client comes first). */
  private async openSession(): Promise<void> {
    await this.client.connect();
    try {
      await this.client.query(PG_ADVISORY_SQL.createSequence);
    } catch (err) {
      if (!(err instanceof pg.DatabaseError && ALREADY_CREATED.has(err.code ?? ''))) throw err;
    }
  }

  /**
   * A new session when the last one ended and held nothing (as an application's
   * pool reconnects): never while a lock is held, since that lock was the old
   * session's and went with it.
   */
  private async reconnect(): Promise<void> {
    if (this.ended === undefined || this.held) return;
    const old = this.client;
    this.client = this.newSession();
    this.ended = undefined;
    void old.end().catch(() => undefined);
    try {
      await this.openSession();
    } catch (err) {
      this.ended ??= `reconnect failed: ${err instanceof Error ? err.message : String(err)}`;
      throw pgOpError(err);
    }
  }

  async acquire(ttlMs: number): Promise<Acquired> {
    const deadline = monotonicNow() + this.o.callTimeoutMs;
    await this.reconnect();
    for (;;) {
      this.notEnded();
      let token: string | null;
      try {
        token = (await this.client.query<{ token: string | null }>(PG_ADVISORY_SQL.tryLock, [this.key])).rows[0]?.token ?? null;
      } catch (err) {
        throw pgOpError(err);
      }
      if (token !== null) {
        this.held = true;
        return { token: tokenFromDecimal(token), lease_ms: ttlMs };
      }
      const remaining = deadline - monotonicNow();
      // Every try answered false: another session held the key, and nothing was taken (nextval ran only on success).
      if (remaining <= 0) throw failed('held', `advisory lock ${this.key} is held by another session`);
      await sleep(Math.min(retryDelayMs(this.o.callTimeoutMs), remaining));
    }
  }

  async release(): Promise<void> {
    if (!this.held) throw failed('not-held', 'no lock is held');
    this.held = false;
    this.notEnded();
    let released: boolean | undefined;
    try {
      released = (await this.client.query<{ released: boolean }>(PG_ADVISORY_SQL.unlock, [this.key])).rows[0]?.released;
    } catch (err) {
      throw pgOpError(err);
    }
    // The server answered false: the session that ran the unlock held no such lock (behind a pooler: another server connection has it).
    if (released !== true) throw failed('not-held', `pg_advisory_unlock(${this.key}) returned false: this session did not hold the lock`);
  }

  holdLost(): string | undefined {
    return this.held && this.ended !== undefined ? `the session's connection ended (${this.ended}): the server releases its advisory locks` : undefined;
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  /** A statement on an ended connection is refused before it is sent: a definite fail. */
  private notEnded(): void {
    if (this.ended !== undefined) throw failed('not-connected', `the session is gone: ${this.ended}`);
  }
}

/** The same client through PgBouncer (transaction pooling): only the endpoint differs. */
export class PgAdvisoryPooledLockClient extends PgAdvisoryLockClient {
  constructor(o: LockClientOptions) {
    super(o, 'pg-advisory-pooled');
  }
}
