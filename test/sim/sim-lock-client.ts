/**
 * The LockClient of one simulated client process (the interface the real
 * clients implement, workloads/clients/lock-client.ts), over the simulated
 * service: Redis's recipe (SET NX PX retried until the call timeout, then
 * compare-and-delete) with its error mapping. Its timers are the process's,
 * so a paused client's retries, timeouts and answers wait for it.
 */
import type { Acquired, LockClient } from '../../runtime/clients/lock-client.js';
import { failed, indeterminate } from '../../runtime/clients/op-error.js';
import { retryDelayMs } from '../../runtime/clients/time.js';
import { raceTimer, sleepOn } from '../../runtime/runner/clock.js';
import type { Prng } from '../../core/random/prng.js';
import type { SimLockService } from './sim-lock-service.js';
import type { SimNetwork } from './sim-network.js';
import type { SimProcess } from './sim-process.js';
import type { SimGrant } from './sim-truth.js';

const TIMED_OUT: unique symbol = Symbol('timed out');

export class SimLockClient implements LockClient {
  readonly backend = 'redis';
  /** The grant this client acts under, as the servers know it (the truth's view, for the resource). */
  grant: SimGrant | undefined;
  private owner: string | undefined;
  private owners = 0;

  constructor(
    private readonly name: string,
    private readonly host: string,
    private readonly lockNodes: readonly string[],
    private readonly proc: SimProcess,
    private readonly net: SimNetwork,
    private readonly service: SimLockService,
    private readonly callTimeoutMs: number,
    private readonly rng: Prng,
  ) {}

  async connect(): Promise<void> {}

  async close(): Promise<void> {}

  holdLost(): undefined {
    return undefined;
  }

  async acquire(ttlMs: number): Promise<Acquired> {
    const owner = `${this.name}-${++this.owners}`;
    const deadline = this.proc.clock.nowNs() + BigInt(Math.round(this.callTimeoutMs * 1e6));
    for (;;) {
      const grant = await this.request(() => this.service.trySet(owner, ttlMs));
      // No answer in time: the SET may have applied at the server.
      if (grant === TIMED_OUT) throw indeterminate('timeout', `SET NX: no answer within ${this.callTimeoutMs} ms`);
      if (grant !== undefined) {
        this.owner = owner;
        this.grant = grant;
        return { token: grant.token, lease_ms: ttlMs };
      }
      const remainingMs = Number(deadline - this.proc.clock.nowNs()) / 1e6;
      // SET NX answered nil every time until the call timeout: nothing was written.
      if (remainingMs <= 0) throw failed('held', 'the lock is held by another client');
      await sleepOn(this.proc.clock, Math.min(retryDelayMs(this.callTimeoutMs, () => this.rng.float()), remainingMs));
    }
  }

  async release(): Promise<void> {
    const owner = this.owner;
    this.owner = undefined;
    if (owner === undefined) throw failed('not-held', 'no lock is held');
    const deleted = await this.request(() => this.service.compareAndDelete(owner));
    this.grant = undefined;
    if (deleted === TIMED_OUT) throw indeterminate('timeout', `release: no answer within ${this.callTimeoutMs} ms`);
    if (!deleted) throw failed('not-held', 'the key no longer holds our value (expired or taken)');
  }

  /** One round trip to the service, answered to this process, or TIMED_OUT after the call timeout. */
  private request<T>(atServer: () => T): Promise<T | typeof TIMED_OUT> {
    const answer = new Promise<T>((resolve) => {
      this.net.send(this.host, this.lockNodes, () => {
        const result = atServer();
        this.net.clock.setTimer(this.net.latencyMs(), () => this.proc.run(() => resolve(result)));
      });
    });
    return raceTimer(this.proc.clock, answer, this.callTimeoutMs, (): typeof TIMED_OUT => TIMED_OUT);
  }
}
