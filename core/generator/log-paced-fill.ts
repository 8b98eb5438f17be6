/**
 * How fast the memcached evict fault may write its fillers: no faster than
 * memcached can tell which keys it evicted.
 *
 * Why: the fault learns which lock keys went from memcached's `watch
 * evictions` stream, and that stream is lossy. Each worker thread logs into a
 * 64-KB buffer that one logger thread drains; an entry that finds the buffer
 * full is dropped (`log_worker_dropped` in `stats`, memcached's logger.c).
 * Measured on these 2-core machines: the logger thread writes about 84,000
 * lines a second, so fillers at 100,000 a second lost 16 % of the lines, and
 * the lock key's eviction was among them in 4 of 5 tries (the cause of the
 * evict test's CI failures).
 *
 * So the eviction lines memcached owes the stream are kept under `window`,
 * fewer than a worker buffer holds, and the rate follows what the logger
 * delivers, on an idle machine or a loaded one:
 * - Until the cache is full nothing is logged, but the moment it fills is
 *   the dangerous one (the lock key is the oldest item, so the first to go,
 *   and fillers written at full rate behind it would all evict at once). So
 *   fillers go a window at a time, each followed by a probe (`stats` on the
 *   fillers' own connection: its answer comes after every filler before it)
 *   that says how many items the cache has evicted so far.
 * - Once a probe saw evictions, every later filler evicts one item: the lines
 *   owed are the evictions counted at that probe, plus the fillers written
 *   since, less the lines received.
 * A filler that takes a chunk a lock client freed evicts nothing, so a used-up
 * window with no line for `stallMs` is opened again rather than waited on.
 */
export interface PacerSettings {
  /** Most fillers in one tick (the full rate is batch per tick). */
  batch: number;
  /** Most eviction lines owed (and, before the cache is full, most fillers between two probes). */
  window: number;
  /** A used-up window with no line for this long is opened again, ms. */
  stallMs: number;
}

export class LogPacedFill {
  private written = 0;
  private lines = 0;
  /** Before the cache is full: fillers written since the last probe was sent, and whether its answer is awaited. */
  private sinceProbe = 0;
  private probing = false;
  /** The probe that first saw evictions: fillers written before it, and the evictions it counted. */
  private full: { written: number; evicted: number } | undefined;
  private credit = 0;
  private lastProgressAt: number;
  private reopenedCount = 0;

  constructor(
    private readonly s: PacerSettings,
    now: number,
  ) {
    if (!(Number.isSafeInteger(s.batch) && s.batch > 0 && Number.isSafeInteger(s.window) && s.window > 0 && s.stallMs > 0)) {
      throw new RangeError(`Expected a positive batch, window and stall time, got ${JSON.stringify(s)}`);
    }
    this.lastProgressAt = now;
  }

  /** How many fillers this tick may write. */
  allowance(now: number): number {
    if (this.full === undefined) return this.probing ? 0 : Math.min(this.s.batch, this.s.window - this.sinceProbe);
    const owed = this.full.evicted + (this.written - this.full.written) - this.lines - this.credit;
    if (owed >= this.s.window && now - this.lastProgressAt >= this.s.stallMs) {
      this.credit += owed;
      this.reopenedCount++;
      this.lastProgressAt = now;
      return Math.min(this.s.batch, this.s.window);
    }
    return Math.max(0, Math.min(this.s.batch, this.s.window - owed));
  }

  wrote(n: number): void {
    this.written += n;
    if (this.full === undefined) this.sinceProbe += n;
  }

  /** Whether a probe should follow what was just written (before the cache is full, once a window is written). */
  wantsProbe(): boolean {
    return this.full === undefined && !this.probing && this.sinceProbe >= this.s.window;
  }

  probeSent(): void {
    this.probing = true;
  }

  /** A probe's answer: the items the cache has evicted since the fault started (every filler before the probe is done). */
  probed(evictedSinceStart: number, now: number): void {
    this.probing = false;
    if (this.full !== undefined) return;
    this.sinceProbe = 0;
    if (evictedSinceStart > 0) {
      this.full = { written: this.written, evicted: evictedSinceStart };
      this.lastProgressAt = now;
    }
  }

  /** An eviction line arrived (any key's: each one is an item the logger delivered). */
  line(now: number): void {
    this.lines++;
    this.lastProgressAt = now;
  }

  /** Whether a probe has seen the cache evict. */
  get isFull(): boolean {
    return this.full !== undefined;
  }

  /** Times a stalled window was opened again. */
  get reopened(): number {
    return this.reopenedCount;
  }
}
