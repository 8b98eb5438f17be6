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
 * Not modelled: transactions and row locks (version's single statements
 * are; for-update is not generated), statement_timeout (nothing here makes a
 * statement wait at the server).
 */
import { pgOpError } from '../../runtime/clients/pg-errors.js';
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

export class SimPgServer {
  row: SimRow;

  constructor(
    readonly node: SimNode,
    initial: string,
    private readonly truth: SimTruth,
    private readonly counter: boolean,
  ) {
    this.row = { data: initial, fence: 0, mark: null, version: 0 };
  }

  execute(text: string, v: readonly unknown[], client: string): Result {
    const row = this.row;
    const one = (r: Row): Result => ({ rows: [r], rowCount: 1 });
    const none: Result = { rows: [], rowCount: 0 };
    const fence = { fence: String(row.fence) };
    switch (text) {
      case SQL.read:
        return one({ data: row.data, fence: String(row.fence) });
      case SQL.versionRead:
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
        return one({ fence: String(row.fence) });
      case SQL.claimRead:
        if (row.fence > Number(v[1])) return none;
        row.fence = Number(v[1]);
        return one({ data: row.data, fence: String(row.fence) });
      case SQL.mark:
        row.mark = String(v[1]);
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

  /** A write lands: the truth learns whether its writer's lock had passed on, and what it overwrote. */
  private apply(value: string, client: string): void {
    const grant = this.truth.grantOf(client);
    const successor = grant === undefined ? undefined : this.truth.successorOf(grant);
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
  private conn: SimConnection | undefined;

  constructor(
    private readonly net: SimNetwork,
    private readonly host: string,
    private readonly proc: SimProcess,
    private readonly server: SimPgServer,
    private readonly client: string,
    private readonly callTimeoutMs: number,
  ) {}

  async query(text: string, values: readonly unknown[]): Promise<Result> {
    const conn = this.conn ?? (this.conn = new SimConnection(this.net, this.host, this.proc, this.server.node, () => undefined));
    try {
      return await new Promise<Result>((resolve, reject) => {
        const cancel = this.proc.clock.setTimer(this.callTimeoutMs, () => reject(new Error('Query read timeout')));
        conn.request(() => this.server.execute(text, values, this.client)).then(
          (r) => (cancel(), resolve(r)),
          (err: unknown) => (cancel(), reject(err instanceof ConnectionReset ? new Error('Connection terminated unexpectedly') : err)),
        );
      });
    } catch (err) {
      // Not reused after a timeout or a broken connection: its statement may still be running.
      this.drop();
      throw pgOpError(err);
    }
  }

  async abort(): Promise<void> {
    this.drop();
  }

  async close(): Promise<void> {
    this.drop();
  }

  private drop(): void {
    this.conn?.close();
    this.conn = undefined;
  }
}
