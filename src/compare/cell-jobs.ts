/**
 * The jobs workload's measure over a cell's seeds (pure): jobs done, jobs
 * done twice (the "double run"), lost, wasted runs the resource refused,
 * pooled into duplicates per 1,000 jobs with Wilson's 95 % interval, the
 * spread between seeds (Student's t over the per-seed rates, which is wider
 * when duplicates come in bursts: core/checkers/lock/rate-interval.ts), and
 * duplicates per hour at the faults' rate.
 */
import type { Value } from '../../core/history/op.js';
import { meanInterval, perThousand, wilsonInterval, type Interval } from '../../core/checkers/lock/rate-interval.js';

/** One run's jobs checker stats, as compare keeps them. */
export interface RunJobs {
  jobs: number;
  duplicates: number;
  lost: number;
  wasted: number;
  spanS: number;
  faultsApplied: number;
}

export interface CellJobs extends RunJobs {
  runs: number;
  /** Duplicated jobs / jobs, pooled over the runs. */
  rate: number;
  /** Wilson's 95 % interval of the pooled rate. */
  interval: Interval;
  /** Student's t 95 % interval of the per-seed rates' mean; absent under two runs. */
  seeds?: Interval & { mean: number };
  /** Duplicates per hour of the runs' time, at their fault rate; null without time. */
  perHour: number | null;
}

/** A run's jobs measure from its jobs checker's stats; null when it has none (another workload, nothing checked). */
export function runJobsOf(stats: { [key: string]: Value } | undefined): RunJobs | null {
  const n = (k: string): number | undefined => (typeof stats?.[k] === 'number' ? (stats[k] as number) : undefined);
  const jobs = n('jobs');
  const duplicates = n('duplicates');
  if (jobs === undefined || duplicates === undefined) return null;
  return { jobs, duplicates, lost: n('lost') ?? 0, wasted: n('wasted') ?? 0, spanS: n('spanS') ?? 0, faultsApplied: n('faultsApplied') ?? 0 };
}

export function cellJobs(runs: readonly { jobs?: RunJobs | null }[]): CellJobs | null {
  const measured = runs.flatMap((r) => (r.jobs ? [r.jobs] : []));
  if (measured.length === 0) return null;
  const sum = (k: keyof RunJobs): number => measured.reduce((t, j) => t + j[k], 0);
  const jobs = sum('jobs');
  const duplicates = sum('duplicates');
  const spanS = Math.round(sum('spanS') * 10) / 10;
  const seeds = meanInterval(measured.filter((j) => j.jobs > 0).map((j) => j.duplicates / j.jobs));
  return {
    runs: measured.length,
    jobs,
    duplicates,
    lost: sum('lost'),
    wasted: sum('wasted'),
    spanS,
    faultsApplied: sum('faultsApplied'),
    rate: jobs === 0 ? 0 : duplicates / jobs,
    interval: wilsonInterval(duplicates, jobs),
    ...(seeds === undefined ? {} : { seeds }),
    perHour: spanS > 0 ? Math.round((36_000 * duplicates) / spanS) / 10 : null,
  };
}

/** `7.3 duplicates per 1,000 jobs (95% CI 4.1–12.9; seeds 2.0–12.6), 0 lost, 41 wasted runs refused, of 2,054 jobs over 5 runs; 45.2 per hour at 2.0 faults a minute`. */
export function describeJobs(j: CellJobs): string {
  // Every seed at 0 has no spread to show (a t interval of zeros is [0, 0], which claims more than it knows).
  const seeds = j.seeds === undefined ? '' : j.seeds.high === 0 ? '; 0 in every seed' : `; over seeds ${perThousand(j.seeds.low)}–${perThousand(j.seeds.high)}`;
  const hourly = j.perHour === null ? '' : `; ${j.perHour.toFixed(1)} per hour at ${((60 * j.faultsApplied) / j.spanS).toFixed(1)} faults a minute`;
  return (
    `${perThousand(j.rate)} duplicates per 1,000 jobs (95% CI ${perThousand(j.interval.low)}–${perThousand(j.interval.high)}${seeds}), ` +
    `${j.duplicates} of ${j.jobs} jobs done twice, ${j.lost} lost, ${j.wasted} wasted run(s) refused, over ${j.runs} run(s)${hourly}`
  );
}
