/**
 * One simulated lock client process as the runner sees it (LockSession):
 * the real RequestHandler over the simulated lock client and the real
 * resource modes over the simulated database, serving one request at a time
 * in order as client-main does. Requests wait in its "pipe" while it is
 * stopped; `started_ns` is stamped when it actually begins one.
 */
import { RequestHandler } from '../../runtime/clients/request-handler.js';
import type { ClientAnswer, ClientReady, ClientRequest } from '../../core/client-protocol.js';
import { Resource } from '../../runtime/clients/resource.js';
import { raceTimer } from '../../runtime/runner/clock.js';
import { wireRequest } from '../../runtime/runner/client-session.js';
import type { LockSession, RequestBody } from '../../runtime/runner/ports.js';
import type { SimLockClient } from './sim-lock-client.js';
import type { SimDb } from './sim-db.js';
import type { SimNetwork } from './sim-network.js';
import type { SimProcess } from './sim-process.js';
import type { VirtualClock } from './virtual-clock.js';

export class SimSession implements LockSession {
  readonly ready: Promise<ClientReady> = Promise.resolve({ ready: true, protocol: 1, token: 'monotonic', versions: { simulation: '1' } });
  private readonly handler: RequestHandler;
  private readonly access: { mode: Resource['mode']; key: string };
  private nextId = 1;
  private queue: Promise<void> = Promise.resolve();
  private readonly exitWaiters = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly host: string,
    readonly pid: number,
    readonly proc: SimProcess,
    private readonly clock: VirtualClock,
    private readonly net: SimNetwork,
    lock: SimLockClient,
    db: SimDb,
    mode: Resource['mode'],
    resourceKey: string,
  ) {
    this.handler = new RequestHandler(lock, new Resource(db, mode, resourceKey), () => undefined);
    this.access = { mode, key: resourceKey };
  }

  get alive(): boolean {
    return !this.proc.dead;
  }

  call(body: RequestBody, giveUpMs: number): Promise<ClientAnswer> {
    const id = this.nextId++;
    if (this.proc.dead) return Promise.resolve({ id, type: 'info', error: 'client-exited' });
    // The runner's wire request: accesses carry the statements of the run's mode, as client-session.ts sends them.
    const req = wireRequest(body, id, this.access);
    const answered = new Promise<ClientAnswer>((resolve) => {
      // Through the pipe (one hop), then strictly after the previous request, while the process runs.
      this.clock.setTimer(this.net.latencyMs(), () => {
        this.queue = this.queue.then(() => this.serve(req, resolve));
      });
    });
    const exited = new Promise<ClientAnswer>((resolve) => this.exitWaiters.add(() => resolve({ id, type: 'info', error: 'client-exited' })));
    return raceTimer(this.clock, Promise.race([answered, exited]), giveUpMs, (): ClientAnswer => ({ id, type: 'info', error: 'gave-up' }));
  }

  private async serve(req: ClientRequest, resolve: (a: ClientAnswer) => void): Promise<void> {
    await this.proc.running();
    if (this.proc.dead) return;
    const startedNs = this.clock.nowNs();
    const answer = await this.handler.handle(req);
    // The answer goes out while the process runs, one hop back to the runner.
    this.proc.run(() => this.clock.setTimer(this.net.latencyMs(), () => resolve({ ...answer, started_ns: String(startedNs) })));
  }

  async pause(): Promise<void> {
    this.proc.pause();
  }

  async resume(): Promise<void> {
    this.proc.resume();
  }

  async kill(): Promise<void> {
    this.proc.kill();
    for (const exit of this.exitWaiters) exit();
    this.exitWaiters.clear();
  }

  close(): void {}
}
