/**
 * What a queue hunt's try is (pure, seeded): the hunt's target and shape with
 * the choices it varies drawn afresh for each try, swarm-style (Groce et
 * al.'s swarm testing, as Jepsen's nemesis packages do): which of the asked
 * faults strike (a non-empty subset), how long a window lasts against the
 * library's lock (from just past it to three times it: a stall shorter than
 * the lock tests nothing), how often windows come, how many workers compete,
 * and the seed that places the jobs. The hunt's seed and the try's index give
 * the same try again; the try's own replay command gives its run again.
 */
import { Prng } from '../random/prng.js';
import type { QueueFault, QueueRunOptions } from './queue-options.js';

/** A window's length as multiples of the library's lock: at the lock, then past it. */
export const DURATION_TIMES_LOCK = [1, 1.5, 2, 3] as const;
/** The quiet time before each window as multiples of the lock (a renewal's rhythm is the lock's). */
export const INTERVAL_TIMES_LOCK = [1, 2, 3] as const;
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
  return {
    choices,
    options: { ...rest, nemesis: swarm, durationMs, intervalMs, workers, seed, resultsDir, name: `try-${String(index + 1).padStart(3, '0')}` },
  };
}

/** `pause,kill 3000 ms every 4000 ms, 3 workers, seed 123`: a try as its progress line says it. */
export function describeQueueTry(c: QueueTryChoices): string {
  return `${c.faults.join(',')} ${c.durationMs} ms windows every ${c.intervalMs} ms, ${c.workers} workers, seed ${c.seed}`;
}
