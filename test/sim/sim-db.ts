/**
 * A simulated PostgreSQL holding the `files` row, and each client process's
 * connection to it (the Db port the real resource modes run through; PgDb is
 * its production adapter). The server executes the resource modes'
 * statements (runtime/clients/resource-modes.ts SQL) on the row, each
 * atomically at the instant it arrives; a statement it does not know is an
 * error of the simulation, never a guess. The connection fails as
 * node-postgres does (its query timeout is the call timeout; a reset
 * connection is dropped and the next statement opens a new one) and its
 * errors go through the production pgOpError.
 *
 * Transactions and the row lock, as for-update uses them: BEGIN opens a
 * transaction on the connection's session; SELECT … FOR UPDATE (and an
 * UPDATE) takes the row lock, waiting behind its holder's COMMIT or ROLLBACK
 * up to the statement_timeout PgDb sets (80 % of the call timeout; then the
 * statement fails with query_canceled, SQLSTATE 57014); the writes inside a
 * transaction are seen only by it until COMMIT, when they are applied (and
 * the truth learns them). A session ends with its connection: closed by the
 * client (its close travels like a packet, and a partition loses it: the
 * session then lingers, its lock held), reset by a kill, or terminated by
 * the server after idle_in_transaction_session_timeout (the run's
 * --idle-tx-timeout-ms): its transaction is rolled back and the lock passes
 * to the next waiter. A kill loses every session; the committed row stays.
 */
import pg from 'pg';
import { pgOpError } from '../../runtime/clients/pg-errors.js';
import { statementTimeoutMs } from '../../runtime/clients/resource.js';
import { SQL, type Db, type Row } from '../../runtime/clients/resource-modes.js';
import { ConnectionReset, SimConnection } from './sim-connection.js';
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';
import type { SimProcess } from './sim-process.js';
import type { SimTruth } from './sim-truth.js';

export interface SimRow {
  data: string;
  fence: number;
  mark: string | null;
  version: number;
}

type Result = { rows: Row[]; rowCount: number };

/** Statements that change the row: inside a transaction they take the row lock, as UPDATE does. */
const WRITES: ReadonlySet<string> = new Set([SQL.write, SQL.fencedWrite, SQL.claimRead, SQL.mark, SQL.casWrite, SQL.versionWrite]);

/** A connection's server session: its open transaction, if any (the data it wrote, whether it holds the row lock). */
export interface SimSession {
  /** The open transaction; `aborted` after a statement of it failed (PostgreSQL then refuses all but ROLLBACK). */
  tx: { data: string | undefined; locked: boolean; aborted?: boolean } | null;
  ended: boolean;
  /** Cancels the idle-in-transaction timer. */
  idle?: () => void;
  /** The server's way to end the connection (idle_in_transaction_session_timeout). */
  terminate: () => void;
}

export class SimPgServer {
  row: SimRow;
  /** idle_in_transaction_session_timeout, ms (0: off), as prepareResource sets it from --idle-tx-timeout-ms. */
  idleTxTimeoutMs = 0;
  private lockOwner: SimSession | undefined;
  private waiters: { session: SimSession; wake: () => void }[] = [];
  private sessions = new Set<SimSession>();
  /** fence-claim: the tokens the fence has been raised to so far (by a claim or a fenced write that took effect). */
  private readonly claimed = new Set<string>();

  constructor(
    readonly node: SimNode,
    initial: string,
    private readonly truth: SimTruth,
    private readonly counter: boolean,
    /** The run's resource mode is fence-claim: a later grant counts for the resource once its token raised the fence. */
    private readonly fenceClaim = false,
  ) {
    this.row = { data: initial, fence: 0, mark: null, version: 0 };
    // A new postgres process: every session of the killed one is gone, with its locks; the committed row stays.
    node.onRestart(() => {
      this.sessions.clear();
      this.lockOwner = undefined;
      this.waiters = [];
    });
  }

  openSession(terminate: () => void): SimSession {
    const session: SimSession = { tx: null, ended: false, terminate };
    this.sessions.add(session);
    return session;
  }

  /** The session is over (its connection closed, or the server ended it): its transaction rolled back, its lock passed on. */
  endSession(session: SimSession): void {
    if (session.ended) return;
    session.ended = true;
    session.idle?.();
    session.tx = null;
    this.sessions.delete(session);
    this.waiters = this.waiters.filter((w) => w.session !== session);
    if (this.lockOwner === session) this.releaseLock();
  }

  /**
   * One statement of a session (none: a test's direct access). Inside a transaction it may wait for the
   * row lock; the idle-in-transaction timer runs between statements.
   */
  execute(text: string, v: readonly unknown[], client: string, session?: SimSession, timeoutMs = Infinity): Result | Promise<Result> {
    if (session === undefined) return this.statement(text, v, client, undefined);
    session.idle?.();
    session.idle = undefined;
    const after = (r: Result): Result => {
      this.armIdle(session);
      return r;
    };
    if (session.tx?.aborted === true && text !== SQL.rollback && text !== SQL.commit) {
      throw Object.assign(new pg.DatabaseError('current transaction is aborted, commands ignored until end of transaction block', 0, 'error'), {
        code: '25P02',
      });
    }
    const needsLock = text === SQL.lockRead || (session.tx !== null && WRITES.has(text));
    if (!needsLock || this.lockOwner === undefined || this.lockOwner === session) return after(this.statement(text, v, client, session));
    return this.waitForLock(session, timeoutMs).then(
      () => after(this.statement(text, v, client, session)),
      (err: unknown) => {
        if (session.tx !== null) session.tx.aborted = true;
        throw err;
      },
    );
  }

  private armIdle(session: SimSession): void {
    if (session.tx === null || this.idleTxTimeoutMs <= 0 || session.ended) return;
    session.idle = this.node.proc.clock.setTimer(this.idleTxTimeoutMs, () => {
      // FATAL: terminating connection due to idle-in-transaction timeout.
      this.endSession(session);
      session.terminate();
    });
  }

  /** Behind the row lock's holder until it commits, rolls back or ends; statement_timeout cancels the wait. */
  private waitForLock(session: SimSession, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter = { session, wake: () => (cancel(), resolve()) };
      const cancel = Number.isFinite(timeoutMs)
        ? this.node.proc.clock.setTimer(timeoutMs, () => {
            this.waiters = this.waiters.filter((w) => w !== waiter);
            // In a transaction the error aborts it: the client rolls back (Resource's abort) or drops the connection.
            reject(Object.assign(new pg.DatabaseError('canceling statement due to statement timeout', 0, 'error'), { code: '57014' }));
          })
        : () => undefined;
      this.waiters.push(waiter);
    });
  }

  private releaseLock(): void {
    this.lockOwner = undefined;
    const next = this.waiters.shift();
    if (next === undefined) return;
    this.lockOwner = next.session;
    if (next.session.tx !== null) next.session.tx.locked = true;
    next.wake();
  }

  private statement(text: string, v: readonly unknown[], client: string, session: SimSession | undefined): Result {
    const tx = session?.tx ?? null;
    switch (text) {
      case SQL.begin:
        if (session !== undefined) session.tx = { data: undefined, locked: false };
        return { rows: [], rowCount: 0 };
      case SQL.lockRead:
        // Granted (waitForLock or free): held to the transaction's end, or to the statement's without one.
        if (tx !== null) {
          tx.locked = true;
          this.lockOwner = session;
        }
        return { rows: [{ data: tx?.data ?? this.row.data, fence: String(this.row.fence) }], rowCount: 1 };
      case SQL.inTransaction:
        return tx !== null && (tx.locked || tx.data !== undefined) ? { rows: [{ in_transaction: 1 }], rowCount: 1 } : { rows: [], rowCount: 0 };
      case SQL.commit:
        // COMMIT of an aborted transaction is a ROLLBACK.
        if (tx !== null && tx.data !== undefined && tx.aborted !== true) this.apply(tx.data, client, true);
        return this.endTx(session);
      case SQL.rollback:
        return this.endTx(session);
      case SQL.write:
        if (tx !== null) {
          tx.data = String(v[1]);
          tx.locked = true;
          this.lockOwner = session;
          return { rows: [{ fence: String(this.row.fence) }], rowCount: 1 };
        }
        return this.autocommit(text, v, client);
      default:
        return this.autocommit(text, v, client);
    }
  }

  private endTx(session: SimSession | undefined): Result {
    if (session !== undefined) {
      session.tx = null;
      if (this.lockOwner === session) this.releaseLock();
    }
    return { rows: [], rowCount: 0 };
  }

  /** A statement on its own: applied at once, visible to all. */
  private autocommit(text: string, v: readonly unknown[], client: string): Result {
    const row = this.row;
    const one = (r: Row): Result => ({ rows: [r], rowCount: 1 });
    const none: Result = { rows: [], rowCount: 0 };
    const fence = { fence: String(row.fence) };
    switch (text) {
      case SQL.read:
        this.accessed(client);
        return one({ data: row.data, fence: String(row.fence) });
      case SQL.versionRead:
        this.accessed(client);
        return one({ data: row.data, fence: String(row.fence), version: String(row.version) });
      case SQL.readMark:
        return row.mark === v[1] ? one({ mark: row.mark }) : none;
      case SQL.write:
        this.apply(String(v[1]), client);
        return one(fence);
      case SQL.fencedWrite:
        if (row.fence > Number(v[2])) return none;
        this.apply(String(v[1]), client);
        row.fence = Number(v[2]);
        this.claimed.add(String(v[2]));
        return one({ fence: String(row.fence) });
      case SQL.claimRead:
        if (row.fence > Number(v[1])) return none;
        row.fence = Number(v[1]);
        this.claimed.add(String(v[1]));
        this.accessed(client);
        return one({ data: row.data, fence: String(row.fence) });
      case SQL.mark:
        row.mark = String(v[1]);
        this.accessed(client);
        return one(fence);
      case SQL.casWrite:
        if (row.mark !== String(v[2])) return none;
        this.apply(String(v[1]), client);
        return one(fence);
      case SQL.versionWrite:
        if (row.version !== Number(v[2])) return none;
        this.apply(String(v[1]), client);
        row.version++;
        return one({ fence: String(row.fence), version: String(row.version) });
      default:
        throw new Error(`the simulated PostgreSQL does not model the statement ${text}`);
    }
  }

  /** An access outside a transaction took effect now, under the grant its client acts under. */
  private accessed(client: string): void {
    this.truth.accesses.push({ token: this.truth.grantOf(client)?.token, atMs: this.node.simMs });
  }

  /** A write lands: the truth learns whether its writer's lock had passed on, and what it overwrote. */
  private apply(value: string, client: string, inTransaction = false): void {
    if (!inTransaction) this.accessed(client);
    const grant = this.truth.grantOf(client);
    // Under fence-claim the lock has passed on, for the resource, once a later grant's token raised the fence
    // (its claim or a fenced write took effect): a write before that is before the new holder's section
    // (stale-writes.ts). Every other mode judges by the grant.
    const successor =
      grant === undefined
        ? undefined
        : this.fenceClaim
          ? this.truth.laterGrants(grant).find((g) => g.token !== undefined && this.claimed.has(String(g.token)))
          : this.truth.successorOf(grant);
    this.truth.writes.push({
      token: grant?.token,
      value,
      atMs: this.node.simMs,
      stale: successor !== undefined,
      supersededBy: successor?.token,
      // The counter it overwrote minus the value it had read (value − 1): increments destroyed.
      lostIncrements: this.counter ? Number(this.row.data) - (Number(value) - 1) : 0,
    });
    this.row.data = value;
  }
}

/** One client process's node-postgres connection, opened at its first statement. */
export class SimPgDb implements Db {
  private conn: { connection: SimConnection; session: SimSession } | undefined;

  constructor(
    private readonly net: SimNetwork,
    private readonly host: string,
    private readonly proc: SimProcess,
    private readonly server: SimPgServer,
    private readonly client: string,
    private readonly callTimeoutMs: number,
  ) {}

  async query(text: string, values: readonly unknown[]): Promise<Result> {
    // A connection the server reset is dropped as node-postgres's 'error' event makes PgDb drop it: the next statement reconnects.
    if (this.conn !== undefined && !this.conn.connection.open) this.conn = undefined;
    const { connection, session } = this.conn ?? (this.conn = this.open());
    const timeoutMs = statementTimeoutMs(this.callTimeoutMs);
    try {
      return await new Promise<Result>((resolve, reject) => {
        const cancel = this.proc.clock.setTimer(this.callTimeoutMs, () => reject(new Error('Query read timeout')));
        connection
          .request(() => this.server.execute(text, values, this.client, session, timeoutMs))
          .then(
            (r) => (cancel(), resolve(r)),
            (err: unknown) => (cancel(), reject(err instanceof ConnectionReset ? new Error('Connection terminated unexpectedly') : err)),
          );
      });
    } catch (err) {
      // Not reused after a timeout or a broken connection (its statement may still be running); a server's error
      // answer leaves it open, as PgDb keeps a connection that answered with a DatabaseError.
      if (!(err instanceof pg.DatabaseError)) this.drop();
      throw pgOpError(err);
    }
  }

  /** ROLLBACK on the live connection, as PgDb's abort; without one the server ended the transaction with the session. */
  async abort(): Promise<void> {
    if (this.conn === undefined || !this.conn.connection.open) return;
    await this.query(SQL.rollback, []).catch(() => this.drop());
  }

  async close(): Promise<void> {
    this.drop();
  }

  private open(): { connection: SimConnection; session: SimSession } {
    const connection = new SimConnection(this.net, this.host, this.proc, this.server.node, () => undefined);
    const session = this.server.openSession(() => connection.resetFromServer());
    return { connection, session };
  }

  /** The connection closed by the client: its close reaches the server like a packet (a partition loses it), which ends the session. */
  private drop(): void {
    const c = this.conn;
    this.conn = undefined;
    if (c === undefined) return;
    c.connection.post(() => this.server.endSession(c.session));
    c.connection.close();
  }
}
