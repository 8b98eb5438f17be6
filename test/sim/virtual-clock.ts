/**
 * The simulation's clock: a Clock (runtime/runner/clock.ts) whose timers
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
  /**
   * Whole ns since the start of the simulation. Whole, so that a timer set for
   * the gap between two readings lands exactly on the later one: with a
   * fractional clock, a wait for "deadline − now" could land a hair before
   * the deadline, read as the same ns, and wait again forever.
   */
  private now = 0;
  /** Events run so far (a runaway guard and a figure for the bench). */
  events = 0;

  nowNs(): bigint {
    return BigInt(this.now);
  }

  get ms(): number {
    return this.now / 1e6;
  }

  /** The wall clock of a process with no clock offset: the simulation starts at a fixed epoch instant. */
  wallMs(): number {
    return VirtualClock.EPOCH_MS + this.now / 1e6;
  }

  /** 2026-01-01T00:00:00Z: any fixed instant, so wall readings replay. */
  static readonly EPOCH_MS = 1_767_225_600_000;

  setTimer(ms: number, fn: () => void): () => void {
    const entry = Object.assign(() => fn(), { cancelled: false });
    // A positive wait takes at least 1 ns, as a real timer takes at least its resolution: a wait for a float gap of
    // 1e-12 ms (two readings' sum rounded differently) must land past it, or its waiter waits again, forever.
    this.queue.push(this.now + (ms > 0 ? Math.max(1, Math.round(ms * 1e6)) : 0), entry);
    return () => {
      entry.cancelled = true;
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
      // Cancelled timers (most timeouts: the answer came first) are dropped without a turn of the loop: nothing runs for them.
      let e = this.queue.pop();
      while (e !== undefined && (e.fn as { cancelled?: boolean }).cancelled === true) e = this.queue.pop();
      if (e === undefined) throw new Error(`simulation stalled at ${this.ms} ms: nothing scheduled and the run has not ended`);
      if (++this.events > maxEvents) throw new Error(`simulation ran ${maxEvents} events without ending (at ${this.ms} ms)`);
      this.now = Math.max(this.now, e.t);
      e.fn();
    }
  }
}
