/**
 * Who holds the lock right now, as the runner sees it (a client whose acquire
 * completed ok and that has not yet asked to release), and what it is doing.
 * The nemesis aims client pauses at a holder, preferably one in its hold
 * (between its read and its write): the moment Kleppmann's GC pause hurts.
 */
import { raceTimer, type Clock } from './clock.js';
import { LockEvents } from './lock-events.js';
import type { LockSession } from './ports.js';

export type HolderStage = 'acquired' | 'marking' | 'hold' | 'writing';

/** The lock event each stage begins with (a trigger's moment, ./lock-events.ts). */
const EVENT_OF_STAGE = { acquired: 'grant', marking: 'mark', hold: 'holder-read', writing: 'write' } as const;

export interface Holder {
  worker: number;
  process: number;
  session: LockSession;
  stage: HolderStage;
  token: number | string | undefined;
  since: number;
  /** The lease the grant came with, ms (the TTL asked for, or the one the client reported). */
  leaseMs?: number;
  /** When it was granted, ms on the run's clock (set by Holders). */
  grantedAtMs?: number;
}

export class Holders {
  private readonly byWorker = new Map<number, Holder>();
  private readonly acquiring = new Map<number, LockSession>();
  private readonly waiters: (() => void)[] = [];
  private readonly grantWaiters: (() => void)[] = [];

  /** Every acquire, grant, mark, hold and write as it happens: what triggered faults wait for. */
  readonly events: LockEvents;

  constructor(private readonly clock: Clock) {
    this.events = new LockEvents(clock);
  }

  /** A worker sent its acquire (until it completes). */
  startAcquire(worker: number, session: LockSession, process = worker): void {
    this.acquiring.set(worker, session);
    for (const wake of this.waiters.splice(0)) wake();
    this.events.emit({ on: 'acquire', worker, process, session, token: undefined });
  }

  endAcquire(worker: number): void {
    this.acquiring.delete(worker);
  }

  /** A client whose acquire is in flight now, waiting up to `waitMs` for one. */
  acquirer(waitMs: number): Promise<LockSession | undefined> {
    return this.waitFor(this.waiters, waitMs, () => [...this.acquiring.values()].find((s) => s.alive));
  }

  set(h: Holder): void {
    const holder = { ...h, grantedAtMs: this.events.nowMs() };
    this.byWorker.set(h.worker, holder);
    for (const wake of this.grantWaiters.splice(0)) wake();
    this.emitStage(holder);
  }

  /** The holder to pause now, or the next one granted within `waitMs`. */
  nextVictim(waitMs: number): Promise<Holder | undefined> {
    return this.waitFor(this.grantWaiters, waitMs, () => this.victim());
  }

  /** `probe()` now, or once more after the next wake-up on `waiters` (bounded by `waitMs`). */
  private async waitFor<T>(waiters: (() => void)[], waitMs: number, probe: () => T | undefined): Promise<T | undefined> {
    const found = probe();
    if (found !== undefined || waitMs <= 0) return found;
    await raceTimer(this.clock, new Promise<void>((resolve) => waiters.push(resolve)), waitMs, () => undefined);
    return probe();
  }

  stage(worker: number, stage: HolderStage): void {
    const h = this.byWorker.get(worker);
    if (!h) return;
    h.stage = stage;
    this.emitStage(h);
  }

  /** The holder of `worker` now, if it still holds. */
  of(worker: number): Holder | undefined {
    return this.byWorker.get(worker);
  }

  private emitStage(h: Holder): void {
    this.events.emit({ on: EVENT_OF_STAGE[h.stage], worker: h.worker, process: h.process, session: h.session, token: h.token });
  }

  delete(worker: number): void {
    this.byWorker.delete(worker);
  }

  all(): Holder[] {
    return [...this.byWorker.values()];
  }

  /** The holder to pause: one in its hold if any, else the longest-standing holder. */
  victim(): Holder | undefined {
    const all = this.all().filter((h) => h.session.alive);
    return all.find((h) => h.stage === 'hold') ?? all.sort((a, b) => a.since - b.since)[0];
  }
}
