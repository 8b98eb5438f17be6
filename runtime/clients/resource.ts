/**
 * The protected resource: PostgreSQL accessed by a lock client, running the
 * statements each access request carries (run-statements.ts; the runner
 * builds them from the mode's SQL in resource-modes.ts).
 *
 * Every statement is bounded twice: `statement_timeout` (80 % of the call
 * timeout) makes the server cancel and roll it back, a definite `fail`; the
 * client's `query_timeout` (the call timeout) covers a server that cannot
 * answer at all, an `info`. A connection that timed out or broke is dropped
 * (its statement may still be running) and the next access opens a new one;
 * a connection that cannot be opened fails the access before anything is
 * sent.
 *
 * `prepareResource` is the runner's: it creates the table and (re)sets the
 * row once, from the root namespace, before any client starts.
 */
import pg from 'pg';
import type { Value } from '../../core/history/op.js';
import { FencecheckError } from '../../core/errors.js';
// The token as the history has it (not lock-client.ts's, which imports the client runtime: a circle of types).
import type { Token } from '../../core/checkers/lock/lock-ops.js';
import { failed, messageOf, OpError } from './op-error.js';
import { pgOpError } from './pg-errors.js';
import type { AccessOp, ClientConfig, Statement } from '../../core/client-protocol.js';
import { accessStatements, dataText, SQL, type Access, type Db, type Row } from './resource-modes.js';
import { runStatements, type Transaction } from './run-statements.js';
import type { ResourceMode } from '../../core/vocabulary.js';

export type PgEndpoint = ClientConfig['pg'];

/** The server-side statement timeout for a call timeout: early enough that the server's cancel usually wins. */
export function statementTimeoutMs(callTimeoutMs: number): number {
  return Math.max(1, Math.floor(callTimeoutMs * 0.8));
}

/** One connection to the resource, reopened after a failure. */
export class PgDb implements Db {
  private client: pg.Client | undefined;

  constructor(
    private readonly endpoint: PgEndpoint,
    private readonly callTimeoutMs: number,
    private readonly log: (line: string) => void,
  ) {}

  async query(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    const c = await this.connected();
    try {
      const r = await c.query<Row>(text, [...values]);
      return { rows: r.rows, rowCount: r.rowCount ?? 0 };
    } catch (err) {
      // Not reused after a timeout or a broken connection: its statement may still be running.
      if (!(err instanceof pg.DatabaseError)) this.drop(c);
      throw pgOpError(err);
    }
  }

  /** ROLLBACK on the live connection; without one the server already ended the transaction with the session. */
  async abort(): Promise<void> {
    const c = this.client;
    if (c === undefined) return;
    await c.query(SQL.rollback).catch(() => this.drop(c));
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const c = new pg.Client({
      ...this.endpoint,
      connectionTimeoutMillis: this.callTimeoutMs,
      statement_timeout: statementTimeoutMs(this.callTimeoutMs),
      query_timeout: this.callTimeoutMs,
    });
    c.on('error', (err) => {
      this.log(`postgres: ${err.message}`);
      this.drop(c);
    });
    try {
      await c.connect();
    } catch (err) {
      void c.end().catch(() => undefined);
      // The connection failed before any statement was sent.
      throw failed('pg-connect', messageOf(err), err);
    }
    this.client = c;
    return c;
  }

  private drop(c: pg.Client): void {
    if (this.client === c) this.client = undefined;
    void c.end().catch(() => undefined);
  }
}

/**
 * The resource as one client sees it. `run` executes a request's statements;
 * read / write / mark / finalRead build them from a mode and a row (the
 * runner's side does the same, resource-modes.ts) for tests and tools.
 * Accesses never throw; errors become answers.
 */
export class Resource {
  /** The connection's open transaction, across accesses (for-update's read opens it, its write commits it). */
  private readonly tx: Transaction = { open: false };

  constructor(
    private readonly db: Db,
    readonly mode: ResourceMode,
    private readonly key: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  read(token: Token | undefined): Promise<Access> {
    return this.access('read', token);
  }

  write(value: Value, token: Token | undefined): Promise<Access> {
    return this.access('write', token, value);
  }

  mark(token: Token | undefined): Promise<Access> {
    return this.access('mark', token);
  }

  finalRead(): Promise<Access> {
    return this.access('final-read', undefined);
  }

  /** Run an access's statements under `token`. */
  async run(statements: readonly Statement[], token: Token | undefined): Promise<Access> {
    try {
      return await runStatements(this.db, statements, token, this.tx);
    } catch (err) {
      if (err instanceof OpError) return { type: err.type, outcome: 'unknown', error: err.code };
      // A bug of ours, not the resource's answer: unknown.
      this.log(`resource: unexpected ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return { type: 'info', outcome: 'unknown', error: 'client-error' };
    }
  }

  private access(op: AccessOp, token: Token | undefined, value?: Value): Promise<Access> {
    return this.run(accessStatements(this.mode, op, this.key, value), token);
  }
}

/** Options of the resource that hold for every session: the server ends a session idle in a transaction this long, ms (0: never). */
export interface ResourceSettings {
  idleInTransactionTimeoutMs?: number;
}

/**
 * Create the `files` table if needed and (re)set the row `key` to `initial`
 * with fence 0, version 0 and no mark. The settings are the database's
 * (ALTER DATABASE), so every session a client opens afterwards has them,
 * whatever its language.
 */
export async function prepareResource(endpoint: PgEndpoint, key: string, initial: Value, timeoutMs = 10_000, settings: ResourceSettings = {}): Promise<void> {
  const c = new pg.Client({ ...endpoint, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query(SQL.createTable);
    await c.query(SQL.addVersion);
    await c.query(SQL.resetRow, [key, dataText(initial)]);
    const idle = Math.max(0, Math.floor(settings.idleInTransactionTimeoutMs ?? 0));
    // An identifier and an integer: neither can be a parameter of ALTER DATABASE.
    await c.query(`ALTER DATABASE ${pg.escapeIdentifier(endpoint.database)} SET idle_in_transaction_session_timeout = ${idle}`);
  } catch (err) {
    throw new FencecheckError(
      'resource-prepare',
      `Could not prepare the resource row \`${key}\` on PostgreSQL ${endpoint.host}:${endpoint.port}: ${messageOf(err)}`,
      {
        hint: 'Check that the cluster includes postgres and that it is up (its log is <runDir>/logs/pg1.log).',
        cause: err,
      },
    );
  } finally {
    await c.end().catch(() => undefined);
  }
}
