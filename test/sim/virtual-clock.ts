/**
 * The simulation's clock: a Clock (workloads/runner/clock.ts) whose timers
 * are events in a heap ordered by (time, sequence), and the loop that drives
 * them. Between two events every pending promise reaction runs (a
 * setImmediate lets the microtask queue drain), so async runner code
 * advances exactly as far as the current instant allows; then virtual time
 * jumps to the next event. One seed, one order of events, one history.
 */
import type { Clock } from '../../runtime/runner/clock.js';
import { EventQueue } from './event-queue.js';

export class VirtualClock implements Clock {
  private readonly queue = new EventQueue();
  /** ms since the start of the simulation. */
  private nowMs = 0;
  /** Events run so far (a runaway guard and a figure for the bench). */
  events = 0;

  nowNs(): bigint {
    return BigInt(Math.round(this.nowMs * 1e6));
  }

  get ms(): number {
    return this.nowMs;
  }

  setTimer(ms: number, fn: () => void): () => void {
    let live = true;
    this.queue.push(this.nowMs + Math.max(0, ms), () => {
      if (live) fn();
    });
    return () => {
      live = false;
    };
  }

  /** Run events until `done` settles; throws if it is still pending after `maxEvents` (a livelock is a bug). */
  async drive<T>(done: Promise<T>, maxEvents = 2_000_000): Promise<T> {
    let settled = false;
    const result = done.finally(() => {
      settled = true;
    });
    result.catch(() => undefined);
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (settled) return result;
      const e = this.queue.pop();
      if (e === undefined) throw new Error(`simulation stalled at ${this.nowMs} ms: nothing scheduled and the run has not ended`);
      if (++this.events > maxEvents) throw new Error(`simulation ran ${maxEvents} events without ending (at ${this.nowMs} ms)`);
      this.nowMs = Math.max(this.nowMs, e.t);
      e.fn();
    }
  }
}
