/**
 * Progress across a whole comparison on stderr: one line when a run starts and
 * one when it ends (with its verdict, the elapsed time and the time left), and
 * when stderr is a terminal a live last line redrawn every second.
 *
 * The time left is the mean duration of the runs finished so far (resumed ones
 * included) times the runs left; before the first run ends it is a guess from
 * the time limit, marked with `~`. Time comes from an injected clock so the
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
}

/** Time left: the mean finished duration × runs left, or the guess before any finished. */
export function etaMs(s: ProgressState): { ms: number; guessed: boolean } {
  const left = Math.max(0, s.total - s.done);
  if (s.durations.length === 0) return { ms: left * s.guessMs, guessed: true };
  const mean = s.durations.reduce((t, d) => t + d, 0) / s.durations.length;
  return { ms: left * mean, guessed: false };
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
  private current: { label: string; since: number } | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly io: ProgressIo,
    private readonly total: number,
    finishedDurations: readonly number[],
    private readonly guessMs: number,
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
    return { done: this.done, total: this.total, elapsedMs: this.io.now() - this.started, durations: this.durations, guessMs: this.guessMs };
  }

  private position(): string {
    return `[${String(this.done + 1).padStart(String(this.total).length)}/${this.total}]`;
  }

  /** A line for a person, above the live line. */
  line(text: string): void {
    this.io.write(`${this.io.live ? '\r\x1b[2K' : ''}${text}\n`);
    this.redraw();
  }

  start(label: string): void {
    this.line(`${this.position()} start ${label}`);
    this.current = { label, since: this.io.now() };
    this.redraw();
  }

  /** `outcome`: e.g. `invalid (lost-update 3)`. */
  end(outcome: string, durationMs: number): void {
    const label = this.current?.label ?? '';
    const position = this.position();
    this.current = null;
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
    if (!this.io.live || this.current === null) return;
    const inRun = formatDuration(this.io.now() - this.current.since);
    this.io.write(`\r\x1b[2K${this.position()} ${this.current.label} · ${inRun} in run · ${progressText(this.state())}`);
  }
}
