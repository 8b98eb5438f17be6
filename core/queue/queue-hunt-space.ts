/**
 * What a queue hunt's try is (pure, seeded): the hunt's target and shape with
 * the choices it varies drawn afresh for each try, swarm-style (Groce et
 * al.'s swarm testing, as Jepsen's nemesis packages do): which of the asked
 * faults strike (a non-empty subset), how long a window lasts against the
 * library's lock (from just past it to three times it: a stall shorter than
 * the lock tests nothing), how often windows come, how many workers compete,
 * the seed that places the jobs, and, for a library that renews its locks,
 * whether the windows strike just before a job's first renewal. The hunt's seed and the try's index give
 * the same try again; the try's own replay command gives its run again.
 */
import { Prng } from '../random/prng.js';
import { renewalDueAfterTakeMs } from './queue-libraries.js';
import { libraryOf, type QueueFault, type QueueRunOptions } from './queue-options.js';
import { planQueueRun } from './queue-plan.js';
import { NEMESIS_OF_WINDOW, TAKER_FAULTS } from './queue-window.js';

/** A window's length as multiples of the library's lock: at the lock, then past it. */
export const DURATION_TIMES_LOCK = [1, 1.5, 2, 3] as const;
/** The quiet time before each window as multiples of the lock (a renewal's rhythm is the lock's). */
export const INTERVAL_TIMES_LOCK = [1, 2, 3] as const;
/**
 * A try aimed at the library's lock renewal: its stalls (cuts, delays) strike a worker just before its first
 * renewal of a job's lock, so a stall shorter than the lock outlasts it; from under the lock to past it.
 */
export const RENEWAL_DURATION_TIMES_LOCK = [0.75, 1, 1.5] as const;
/** Such a try's jobs last a lock (held past their first renewal) at a rate that keeps each worker about half busy. */
export const RENEWAL_JOB_TIMES_LOCK = 1;

/** The fewest workers a try runs: a job handed out again needs a second worker to take it (a kill's restart aside). */
export const MIN_TRY_WORKERS = 2;

/** What a try drew, as the hunt's lines and hunt.json say it. */
export interface QueueTryChoices {
  index: number;
  faults: QueueFault[];
  durationMs: number;
  intervalMs: number;
  workers: number;
  seed: number;
  /** A try aimed at the renewal: how long after its take a worker is struck, and its jobs' length and rate. */
  renewal?: { afterTakeMs: number; jobMs: number; rate: number };
}

/**
 * The `index`-th try of a hunt whose seed is `huntSeed`, over `base` (target, shape, `workers` the most a try
 * runs): its choices and the run's options (named `try-NNN`, written under `resultsDir`).
 */
export function queueTry(
  base: QueueRunOptions,
  faults: readonly QueueFault[],
  huntSeed: number,
  index: number,
  resultsDir: string,
): {
  choices: QueueTryChoices;
  options: QueueRunOptions;
} {
  if (faults.length === 0) throw new RangeError('Expected at least one fault to hunt with');
  const rng = new Prng(huntSeed).fork(`queue-try-${index}`);
  // Each fault in with even odds, at least one: a try of one fault finds what only that fault does, with less noise.
  let swarm = faults.filter(() => rng.float() < 0.5);
  if (swarm.length === 0) swarm = [rng.pick(faults)];
  const durationMs = Math.round(base.lockMs * rng.pick(DURATION_TIMES_LOCK));
  const intervalMs = Math.round(base.lockMs * rng.pick(INTERVAL_TIMES_LOCK));
  const workers = rng.int(Math.min(MIN_TRY_WORKERS, base.workers), base.workers);
  const seed = rng.int(0, 2 ** 31 - 1);
  const choices: QueueTryChoices = { index, faults: swarm, durationMs, intervalMs, workers, seed };
  const { windows: _given, ...rest } = base;
  const options: QueueRunOptions = {
    ...rest,
    nemesis: swarm,
    durationMs,
    intervalMs,
    workers,
    seed,
    resultsDir,
    name: `try-${String(index + 1).padStart(3, '0')}`,
  };
  return aimAtRenewal(rng.fork('renewal'), choices, options);
}

/**
 * Half the tries of a library that renews its locks, whose faults strike a taker, aim those windows just before
 * the first renewal (drawn apart, so the tries of a hunt before this aim kept their draws): the plan's windows,
 * written out with their `afterTakeMs`, jobs a lock long, a stall from under the lock to past it.
 */
function aimAtRenewal(rng: Prng, choices: QueueTryChoices, options: QueueRunOptions): { choices: QueueTryChoices; options: QueueRunOptions } {
  const afterTakeMs = renewalDueAfterTakeMs(libraryOf(options), options.lockMs);
  const strikesTaker = TAKER_FAULTS.some((f) => options.nemesis.includes(NEMESIS_OF_WINDOW[f]));
  if (afterTakeMs === undefined || !strikesTaker || rng.float() < 0.5) return { choices, options };
  const jobMs = Math.round(options.lockMs * RENEWAL_JOB_TIMES_LOCK);
  const rate = Math.min(options.rate, 500 / jobMs);
  const durationMs = Math.round(options.lockMs * rng.pick(RENEWAL_DURATION_TIMES_LOCK));
  const aimed = { ...options, jobMs, rate, durationMs };
  const windows = planQueueRun(aimed).stalls.map((w) => (TAKER_FAULTS.includes(w.fault) ? { ...w, afterTakeMs } : w));
  // Every window drawn a kill: nothing to aim, the try as it was.
  if (!windows.some((w) => w.afterTakeMs !== undefined)) return { choices, options };
  return { choices: { ...choices, durationMs, renewal: { afterTakeMs, jobMs, rate } }, options: { ...aimed, windows } };
}

/** `pause,kill 3000 ms every 4000 ms, 3 workers, seed 123`: a try as its progress line says it. */
export function describeQueueTry(c: QueueTryChoices): string {
  const aim = c.renewal === undefined ? '' : `, ${c.renewal.afterTakeMs} ms after a take (its lock's renewal due; jobs ${c.renewal.jobMs} ms)`;
  return `${c.faults.join(',')} ${c.durationMs} ms windows every ${c.intervalMs} ms${aim}, ${c.workers} workers, seed ${c.seed}`;
}
