/**
 * Progress across a whole comparison on stderr: one line when a run starts and
 * one when it ends (with its verdict, the elapsed time and the time left), and
 * when stderr is a terminal a live last line redrawn every second.
 *
 * The time left is the mean duration of the runs finished so far (resumed ones
 * included) times the runs left, over the runs under way at once (`--parallel`);
 * before the first run ends it is a guess from the time limit, marked with `~`. Time comes from an injected clock so the
 * lines can be tested exactly.
 */
import { formatDuration } from './format-units.js';

export interface ProgressIo {
  write(text: string): void;
  /** Redraw a live line (stderr is a terminal). */
  live: boolean;
  now(): number;
}

export interface ProgressState {
  done: number;
  total: number;
  elapsedMs: number;
  /** Durations of the finished runs, ms. */
  durations: readonly number[];
  /** A run's expected duration before any has finished, ms. */
  guessMs: number;
  /** Runs under way at once (`--parallel`); 1 when absent. */
  lanes?: number;
}

/** Time left: the mean finished duration × runs left, or the guess before any finished. */
export function etaMs(s: ProgressState): { ms: number; guessed: boolean } {
  const left = Math.max(0, s.total - s.done);
  const lanes = Math.max(1, Math.min(s.lanes ?? 1, left));
  if (s.durations.length === 0) return { ms: (left * s.guessMs) / lanes, guessed: true };
  const mean = s.durations.reduce((t, d) => t + d, 0) / s.durations.length;
  return { ms: (left * mean) / lanes, guessed: false };
}

/** `3/46 done · 2m05s elapsed · ETA 6m10s`. */
export function progressText(s: ProgressState): string {
  const eta = etaMs(s);
  return `${s.done}/${s.total} done · ${formatDuration(s.elapsedMs)} elapsed · ETA ${eta.guessed ? '~' : ''}${formatDuration(eta.ms)}`;
}

export class CompareProgress {
  private readonly started: number;
  private done: number;
  private readonly durations: number[];
  /** The runs under way, oldest first (several with --parallel). */
  private readonly current: { id: number; label: string; since: number }[] = [];
  private nextId = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly io: ProgressIo,
    private readonly total: number,
    finishedDurations: readonly number[],
    private readonly guessMs: number,
    private readonly lanes = 1,
  ) {
    this.started = io.now();
    this.done = finishedDurations.length;
    this.durations = [...finishedDurations];
    if (io.live) {
      this.timer = setInterval(() => this.redraw(), 1000);
      this.timer.unref();
    }
  }

  private state(): ProgressState {
    return {
      done: this.done,
      total: this.total,
      elapsedMs: this.io.now() - this.started,
      durations: this.durations,
      guessMs: this.guessMs,
      lanes: this.lanes,
    };
  }

  private position(): string {
    return `[${String(this.done + 1).padStart(String(this.total).length)}/${this.total}]`;
  }

  /** A line for a person, above the live line. */
  line(text: string): void {
    this.io.write(`${this.io.live ? '\r\x1b[2K' : ''}${text}\n`);
    this.redraw();
  }

  /** A run starts; the id ends it (`end`), when several are under way. */
  start(label: string): number {
    this.line(`${this.position()} start ${label}`);
    const id = this.nextId++;
    this.current.push({ id, label, since: this.io.now() });
    this.redraw();
    return id;
  }

  /** `outcome`: e.g. `invalid (lost-update 3)`; `id`: the run `start` gave (default: the oldest under way). */
  end(outcome: string, durationMs: number, id?: number): void {
    const at = id === undefined ? 0 : this.current.findIndex((c) => c.id === id);
    const label = this.current[at]?.label ?? '';
    const position = this.position();
    if (at >= 0) this.current.splice(at, 1);
    this.done++;
    this.durations.push(durationMs);
    this.line(`${position} ${outcome} ${label} in ${formatDuration(durationMs)} · ${progressText(this.state())}`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.io.live) this.io.write('\r\x1b[2K');
  }

  private redraw(): void {
    const oldest = this.current[0];
    if (!this.io.live || oldest === undefined) return;
    const inRun = formatDuration(this.io.now() - oldest.since);
    const more = this.current.length > 1 ? ` (+${this.current.length - 1} more under way)` : '';
    this.io.write(`\r\x1b[2K${this.position()} ${oldest.label}${more} · ${inRun} in run · ${progressText(this.state())}`);
  }
}
