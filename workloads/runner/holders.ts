/**
 * Who holds the lock right now, as the runner sees it (a client whose acquire
 * completed ok and that has not yet asked to release), and what it is doing.
 * The nemesis aims client pauses at a holder, preferably one in its hold
 * (between its read and its write): the moment Kleppmann's GC pause hurts.
 */
import type { ClientSession } from './client-session.js';

export type HolderStage = 'acquired' | 'hold' | 'writing';

export interface Holder {
  worker: number;
  process: number;
  session: ClientSession;
  stage: HolderStage;
  token: number | string | undefined;
  since: number;
}

export class Holders {
  private readonly byWorker = new Map<number, Holder>();

  set(h: Holder): void {
    this.byWorker.set(h.worker, h);
  }

  stage(worker: number, stage: HolderStage): void {
    const h = this.byWorker.get(worker);
    if (h) h.stage = stage;
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
