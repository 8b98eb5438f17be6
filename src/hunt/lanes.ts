/**
 * Lanes: the N clusters (slots) a parallel command runs its re-runs and tries
 * on, handed out one job at a time. A job waits for a free lane; waiters with
 * a higher priority go first (a find's confirmation before the next try of
 * the search), the same priority in the order they asked. Pure scheduling:
 * what a lane is (a warm cluster in a slot) is the caller's.
 */
export class Lanes {
  private readonly free: number[];
  private readonly waiting: { priority: number; seq: number; take: (lane: number) => void }[] = [];
  private seq = 0;

  constructor(readonly count: number) {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`Expected at least one lane, got ${count}`);
    this.free = Array.from({ length: count }, (_, i) => i);
  }

  /** Lanes nobody uses now. */
  get idle(): number {
    return this.free.length;
  }

  /** Runs `job` on a lane once one is free (the lowest-numbered free one: lane 0 is the warmest), then gives the lane back. */
  async use<T>(job: (lane: number) => Promise<T>, priority = 0): Promise<T> {
    const lane = await this.take(priority);
    try {
      return await job(lane);
    } finally {
      this.give(lane);
    }
  }

  private take(priority: number): Promise<number> {
    if (this.free.length > 0 && this.waiting.length === 0) return Promise.resolve(this.lowestFree());
    return new Promise((take) => {
      this.waiting.push({ priority, seq: this.seq++, take });
      this.waiting.sort((a, b) => b.priority - a.priority || a.seq - b.seq);
      this.serve();
    });
  }

  private give(lane: number): void {
    this.free.push(lane);
    this.serve();
  }

  private serve(): void {
    while (this.free.length > 0 && this.waiting.length > 0) this.waiting.shift()!.take(this.lowestFree());
  }

  private lowestFree(): number {
    this.free.sort((a, b) => a - b);
    return this.free.shift()!;
  }
}
