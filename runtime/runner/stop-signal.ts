/**
 * The end of the main phase, as something to wait on: sleeps that should end
 * when the run stops (think times, the nemesis waiting for its next window)
 * resolve early; sleeps that must not (a holder's hold) use plain `sleepOn`.
 */
import type { Clock } from './clock.js';

export class StopSignal {
  private stoppedFlag = false;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  get stopped(): boolean {
    return this.stoppedFlag;
  }

  stop(): void {
    this.stoppedFlag = true;
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
  }

  /** Sleep `ms`, or less if the run stops first. */
  sleep(ms: number): Promise<void> {
    if (this.stoppedFlag || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        cancel();
        this.waiters.delete(wake);
        resolve();
      };
      const cancel = this.clock.setTimer(ms, wake);
      this.waiters.add(wake);
    });
  }
}
