/**
 * A simulated OS process: its timers run only while it runs. SIGSTOP (pause)
 * holds every event the process would handle until SIGCONT (resume), in
 * order, as a stopped process's timers and sockets wait; kill -9 drops them
 * for good. Whatever the process sent before it stopped is already on the
 * wire: the servers (not owned by a process) act on it meanwhile.
 */
import type { Clock } from '../../runtime/runner/clock.js';

export class SimProcess {
  paused = false;
  dead = false;
  private deferred: (() => void)[] = [];
  private resumeWaiters: (() => void)[] = [];

  constructor(private readonly world: Clock) {}

  /** This process's view of time: the world's reading, timers that wait while it is stopped. */
  readonly clock: Clock = {
    nowNs: () => this.world.nowNs(),
    setTimer: (ms, fn) => this.world.setTimer(ms, () => this.run(fn)),
  };

  /** Run `fn` as this process: now if it runs, at resume if stopped, never if dead. */
  run(fn: () => void): void {
    if (this.dead) return;
    if (this.paused) this.deferred.push(fn);
    else fn();
  }

  /** Resolves when the process is running (at once if it is). */
  running(): Promise<void> {
    if (!this.paused) return Promise.resolve();
    return new Promise((resolve) => this.resumeWaiters.push(resolve));
  }

  pause(): void {
    if (!this.dead) this.paused = true;
  }

  resume(): void {
    if (!this.paused || this.dead) return;
    this.paused = false;
    for (const fn of this.deferred.splice(0)) fn();
    for (const wake of this.resumeWaiters.splice(0)) wake();
  }

  kill(): void {
    this.dead = true;
    this.paused = false;
    this.deferred = [];
    this.resumeWaiters = [];
  }
}
