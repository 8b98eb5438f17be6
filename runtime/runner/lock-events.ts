/**
 * The lock events of a run as they happen (a client sent its acquire, was
 * granted, sent its mark, began its hold, sent its write), published by the
 * critical sections through Holders (./holders.ts), so that a fault window
 * with a trigger (../generator/nemesis-schedule.ts) can start at the moment
 * that matters instead of at a time drawn in advance.
 *
 * Why waits are bounded on the run's clock: a trigger whose event never comes
 * (nobody acquires during a partition) must give up and say so, and the
 * simulation must see the same timers the real run does.
 */
import type { TriggerEvent } from '../../core/generator/fault-window.js';
import { raceTimer, type Clock } from './clock.js';
import type { LockSession } from './ports.js';

/** One event: who, which process, under which token, when (ms on the run's clock). */
export interface LockEvent {
  on: Exclude<TriggerEvent, 'held' | 'lease-ending' | 'renew'>;
  worker: number;
  process: number;
  session: LockSession;
  token: number | string | undefined;
  atMs: number;
}

export class LockEvents {
  private readonly listeners = new Set<(e: LockEvent) => boolean>();

  constructor(private readonly clock: Clock) {}

  nowMs(): number {
    return Number(this.clock.nowNs()) / 1e6;
  }

  emit(e: Omit<LockEvent, 'atMs'>): void {
    const event = { ...e, atMs: this.nowMs() };
    for (const listener of [...this.listeners]) if (listener(event)) this.listeners.delete(listener);
  }

  /** The next event that `matches`, or undefined after `waitMs`. */
  next(matches: (e: LockEvent) => boolean, waitMs: number): Promise<LockEvent | undefined> {
    let listener: ((e: LockEvent) => boolean) | undefined;
    const seen = new Promise<LockEvent>((resolve) => {
      listener = (e) => {
        if (!matches(e) || !e.session.alive) return false;
        resolve(e);
        return true;
      };
      this.listeners.add(listener);
    });
    return raceTimer(this.clock, seen, Math.max(0, waitMs), () => undefined).finally(() => this.listeners.delete(listener!));
  }
}
