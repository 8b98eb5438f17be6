/**
 * A delay line: each chunk pushed in comes out `delayMs` later, in order. The
 * kernel here has no netem, so a link's delay is made in user space, chunk by
 * chunk, by the delay proxy. A chunk's time out is max(arrival + delay, time
 * out of the chunk before), so lowering the delay never reorders bytes.
 * Time and timers are injected so tests can run it in virtual time.
 */

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
}

export const realClock: Clock = { now: () => performance.now(), setTimeout: (fn, ms) => setTimeout(fn, ms) };

export class DelayLine<T> {
  private readonly queue: { at: number; item: T }[] = [];
  private lastAt = -Infinity;
  private timerArmed = false;
  private ended = false;
  private onDrained: (() => void) | undefined;

  constructor(
    private readonly deliver: (item: T) => void,
    private delayMs: number,
    private readonly clock: Clock = realClock,
  ) {}

  setDelay(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`Expected a delay of 0 ms or more, got \`${ms}\``);
    this.delayMs = ms;
  }

  push(item: T): void {
    const at = Math.max(this.clock.now() + this.delayMs, this.lastAt);
    this.lastAt = at;
    this.queue.push({ at, item });
    this.arm();
  }

  /** Call `then` once everything pushed so far has come out. */
  end(then: () => void): void {
    this.ended = true;
    this.onDrained = then;
    if (this.queue.length === 0) then();
  }

  get pending(): number {
    return this.queue.length;
  }

  private arm(): void {
    const head = this.queue[0];
    if (this.timerArmed || head === undefined) return;
    this.timerArmed = true;
    this.clock.setTimeout(() => this.flush(), Math.max(0, head.at - this.clock.now()));
  }

  private flush(): void {
    this.timerArmed = false;
    const now = this.clock.now();
    while (this.queue.length > 0 && (this.queue[0]?.at ?? Infinity) <= now) this.deliver((this.queue.shift() as { item: T }).item);
    if (this.queue.length > 0) this.arm();
    else if (this.ended) this.onDrained?.();
  }
}
