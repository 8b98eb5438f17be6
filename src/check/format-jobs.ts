/**
 * The jobs workload's measure in words (the jobs checker's stats,
 * core/checkers/lock/jobs.ts), for the outcome line of run, check and report:
 *
 *   jobs: 412 done, 3 done twice (7.3 per 1,000, 95% CI 2.5–21.2), 0 lost, 5 wasted runs refused; 90.0 duplicates per hour at 2.0 faults a minute
 */
import type { Value } from '../../core/history/op.js';
import { perThousand } from '../../core/checkers/lock/rate-interval.js';

/** Undefined when the stats are not a jobs checker's. */
export function formatJobs(stats: { [key: string]: Value } | undefined): string | undefined {
  const n = (k: string): number | undefined => (typeof stats?.[k] === 'number' ? (stats[k] as number) : undefined);
  const jobs = n('jobs');
  const duplicates = n('duplicates');
  if (jobs === undefined || duplicates === undefined) return undefined;
  const rate =
    jobs === 0 ? 'no job done' : `${perThousand(duplicates / jobs)} per 1,000, 95% CI ${perThousand(n('ciLow') ?? 0)}–${perThousand(n('ciHigh') ?? 1)}`;
  const spanS = n('spanS') ?? 0;
  const faults = n('faultsApplied') ?? 0;
  const perHour = n('duplicatesPerHour');
  const hourly =
    perHour === undefined || spanS === 0 ? '' : `; ${perHour.toFixed(1)} duplicates per hour at ${((60 * faults) / spanS).toFixed(1)} faults a minute`;
  return `jobs: ${jobs} done, ${duplicates} done twice (${rate}), ${n('lost') ?? 0} lost, ${n('wasted') ?? 0} wasted run(s) refused${hourly}`;
}
