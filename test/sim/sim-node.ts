/**
 * One simulated server node: its process (paused by SIGSTOP, killed by
 * kill -9, a new incarnation at restart), its wall clock (the node's clock
 * offset, as the clock library shifts it) and the connections that a kill
 * resets. Servers (sim-redis.ts, sim-etcd.ts, sim-zookeeper.ts, sim-db.ts)
 * keep their data on their node and are told of kills and restarts.
 */
import { SimProcess } from './sim-process.js';
import type { VirtualClock } from './virtual-clock.js';

export class SimNode {
  proc: SimProcess;
  /** The clock fault's offset of this node's wall clock, ms. */
  offsetMs = 0;
  private readonly resetters = new Set<() => void>();
  private readonly restartHooks: (() => void)[] = [];

  constructor(
    readonly name: string,
    private readonly clock: VirtualClock,
  ) {
    this.proc = new SimProcess(clock);
  }

  get up(): boolean {
    return !this.proc.dead;
  }

  /** Simulated time, ms since the start (the truth's time line). */
  get simMs(): number {
    return this.clock.ms;
  }

  /** The node's wall clock: what Redis expires keys by. */
  wallMs(): number {
    return this.clock.wallMs() + this.offsetMs;
  }

  /** Run `fn` as the server process (deferred while paused, dropped if dead). */
  run(fn: () => void): void {
    this.proc.run(fn);
  }

  /** A connection to reset when the process dies; returns the unsubscribe. */
  onReset(fn: () => void): () => void {
    this.resetters.add(fn);
    return () => this.resetters.delete(fn);
  }

  onRestart(fn: () => void): void {
    this.restartHooks.push(fn);
  }

  kill(): void {
    if (this.proc.dead) throw new Error(`${this.name} is not running`);
    this.proc.kill();
    for (const reset of [...this.resetters]) reset();
    this.resetters.clear();
  }

  restart(): void {
    if (!this.proc.dead) throw new Error(`${this.name} is running`);
    this.proc = new SimProcess(this.clock);
    for (const hook of this.restartHooks) hook();
  }
}
