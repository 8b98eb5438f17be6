/**
 * A queue run's plan (pure, seeded): when each job is enqueued and when each
 * fault window opens, and which fault it is. Same options, same plan: the
 * replay command gives the same jobs at the same moments and the same
 * windows. A window strikes the first worker that takes a job after it opens
 * (the danger is a worker stalled or killed while it holds one), for the
 * window's duration. With both faults asked for, each window's fault is drawn.
 * A run given its windows (`--script`, what a hunt's try or a shrunk plan
 * replays) takes them as they are; the jobs are still drawn from the seed.
 */
import { Prng } from '../random/prng.js';
import type { QueueRunOptions } from './queue-options.js';
import { NEMESIS_OF_WINDOW, WINDOW_FAULTS, type QueueWindow } from './queue-window.js';

export { WINDOW_FAULTS, type WindowFault } from './queue-window.js';

export interface QueuePlan {
  /** Job ids 1..n and when each is enqueued, ms after the main phase starts. */
  jobs: { job: number; atMs: number }[];
  /** Fault windows: opened at atMs, each lasting durationMs once it finds a worker holding a job. */
  stalls: QueueWindow[];
  /** Worker host names (w1..wn) and the producer's. */
  workers: string[];
  producer: string;
}

export function planQueueRun(o: QueueRunOptions): QueuePlan {
  const rng = new Prng(o.seed);
  const horizonMs = o.timeLimitS * 1000;
  const jobs: QueuePlan['jobs'] = [];
  const arrivals = rng.fork('jobs');
  const perSecond = o.rate * o.workers;
  for (let t = arrivals.exponential(1000 / perSecond); t < horizonMs; t += arrivals.exponential(1000 / perSecond))
    jobs.push({ job: jobs.length + 1, atMs: Math.round(t) });
  const stalls: QueuePlan['stalls'] = o.windows === undefined ? drawnWindows(o, rng, horizonMs) : o.windows.map((w) => ({ ...w }));
  return { jobs, stalls, workers: Array.from({ length: o.workers }, (_, i) => `w${i + 1}`), producer: 'producer' };
}

function drawnWindows(o: QueueRunOptions, rng: Prng, horizonMs: number): QueueWindow[] {
  const stalls: QueueWindow[] = [];
  // The window faults the run's --nemesis asks for, in WINDOW_FAULTS' order (which a seed's draws depend on).
  const faults = WINDOW_FAULTS.filter((w) => o.nemesis.includes(NEMESIS_OF_WINDOW[w]));
  if (faults.length > 0) {
    const gaps = rng.fork('stalls');
    // Drawn apart from the gaps, so that a run of one fault keeps the windows it always had.
    const kinds = rng.fork('fault kinds');
    // Each window a quiet interval after the last one ended, jittered by up to a fifth so windows do not beat with the jobs.
    for (let t = o.intervalMs; t < horizonMs; t += o.durationMs + o.intervalMs + gaps.int(0, Math.floor(o.intervalMs / 5))) {
      const fault = faults.length === 1 ? faults[0]! : faults[kinds.int(0, faults.length - 1)]!;
      // A delay as long as the library's lock: a renewal sent at once arrives after the lock ran out.
      stalls.push({ atMs: t, durationMs: o.durationMs, fault, ...(fault === 'delay' ? { delayMs: o.lockMs } : {}) });
    }
  }
  return stalls;
}
