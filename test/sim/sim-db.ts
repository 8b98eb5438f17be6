/**
 * The resource as one simulated client's database connection: the `Db`
 * interface the real resource modes run their SQL through
 * (workloads/clients/resource-modes.ts), so the modes' real code runs here.
 * The statements are interpreted on one in-memory row, each atomically at the
 * instant it reaches the server. Data-changing writes are written to the
 * truth with the grant their client was acting under.
 */
import { SQL, type Db, type Row } from '../../runtime/clients/resource-modes.js';
import { indeterminate } from '../../runtime/clients/op-error.js';
import { raceTimer } from '../../runtime/runner/clock.js';
import type { SimLockClient } from './sim-lock-client.js';
import type { SimLockService } from './sim-lock-service.js';
import type { SimNetwork } from './sim-network.js';
import type { SimProcess } from './sim-process.js';
import type { SimTruth } from './sim-truth.js';

/** The `files` row. */
export interface SimRow {
  data: string;
  fence: number;
  mark: string | null;
}

export interface SimResource {
  row: SimRow;
  node: string;
  counter: boolean;
  truth: SimTruth;
  service: SimLockService;
}

const TIMED_OUT: unique symbol = Symbol('timed out');

export class SimDb implements Db {
  constructor(
    private readonly resource: SimResource,
    private readonly host: string,
    private readonly proc: SimProcess,
    private readonly net: SimNetwork,
    private readonly lock: SimLockClient,
    private readonly callTimeoutMs: number,
  ) {}

  async query(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    const answer = new Promise<{ rows: Row[]; rowCount: number }>((resolve) => {
      this.net.send(this.host, [this.resource.node], () => {
        const result = this.execute(text, values);
        this.net.clock.setTimer(this.net.latencyMs(), () => this.proc.run(() => resolve(result)));
      });
    });
    const r = await raceTimer(this.proc.clock, answer, this.callTimeoutMs, (): typeof TIMED_OUT => TIMED_OUT);
    // No answer: the statement may still run at the server (it is on the wire).
    if (r === TIMED_OUT) throw indeterminate('timeout', `no answer within ${this.callTimeoutMs} ms`);
    return r;
  }

  private execute(text: string, v: readonly unknown[]): { rows: Row[]; rowCount: number } {
    const row = this.resource.row;
    const one = (r: Row) => ({ rows: [r], rowCount: 1 });
    const none = { rows: [], rowCount: 0 };
    switch (text) {
      case SQL.read:
        return one({ data: row.data, fence: String(row.fence) });
      case SQL.readMark:
        return row.mark === v[1] ? one({ mark: row.mark }) : none;
      case SQL.write:
        this.apply(String(v[1]));
        return one({ fence: String(row.fence) });
      case SQL.fencedWrite:
        if (row.fence > Number(v[2])) return none;
        this.apply(String(v[1]));
        row.fence = Number(v[2]);
        return one({ fence: String(row.fence) });
      case SQL.claimRead:
        if (row.fence > Number(v[1])) return none;
        row.fence = Number(v[1]);
        return one({ data: row.data, fence: String(row.fence) });
      case SQL.mark:
        row.mark = String(v[1]);
        return one({ fence: String(row.fence) });
      case SQL.casWrite:
        if (row.mark !== String(v[2])) return none;
        this.apply(String(v[1]));
        return one({ fence: String(row.fence) });
      default:
        throw new Error(`the simulated resource does not know the statement ${text}`);
    }
  }

  /** A write lands: the truth learns whether its writer's lock had passed on, and what it overwrote. */
  private apply(value: string): void {
    const row = this.resource.row;
    const grant = this.lock.grant;
    const successor = grant === undefined ? undefined : this.resource.service.successorOf(grant);
    this.resource.truth.writes.push({
      token: grant?.token,
      value,
      atMs: this.net.clock.ms,
      stale: successor !== undefined,
      supersededBy: successor?.token,
      // The counter it overwrote minus the value it had read (value − 1): increments destroyed.
      lostIncrements: this.resource.counter ? Number(row.data) - (Number(value) - 1) : 0,
    });
    row.data = value;
  }
}
