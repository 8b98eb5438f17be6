/** The jobs measure over a cell's seeds: pooled rate, Wilson's interval, the seeds' spread, per hour; and its words on the outcome line. */
import { describe, expect, it } from 'vitest';
import { cellJobs, describeJobs, runJobsOf, type RunJobs } from '../../src/compare/cell-jobs.js';
import { formatJobs } from '../../src/check/format-jobs.js';

const run = (jobs: number, duplicates: number, extra: Partial<RunJobs> = {}): { jobs: RunJobs } => ({
  jobs: { jobs, duplicates, lost: 0, wasted: 0, spanS: 60, faultsApplied: 2, ...extra },
});

describe('cellJobs', () => {
  it('pools five seeds: the rate of all jobs, Wilson over the pool, t over the seeds, per hour of their time', () => {
    const j = cellJobs([run(200, 1), run(200, 2), run(200, 0), run(200, 3), run(200, 1, { lost: 1, wasted: 4 })])!;
    expect(j).toMatchObject({ runs: 5, jobs: 1000, duplicates: 7, lost: 1, wasted: 4, spanS: 300, faultsApplied: 10, perHour: 84 });
    expect(j.rate).toBe(0.007);
    expect(j.interval.low).toBeCloseTo(0.0034, 4);
    expect(j.interval.high).toBeCloseTo(0.0144, 4);
    // Per-seed rates 5, 10, 0, 15, 5 per 1,000: s = 5.7, t(4) = 2.776, half width 7.1 (the lower end clamped at 0).
    expect(j.seeds!.mean).toBeCloseTo(0.007, 6);
    expect(describeJobs(j)).toBe(
      '7.0 duplicates per 1,000 jobs (95% CI 3.4–14.4; over seeds 0.0–14.1), 7 of 1000 jobs done twice, 1 lost, 4 wasted run(s) refused, over 5 run(s); 84.0 per hour at 2.0 faults a minute',
    );
  });

  it('no run of the jobs workload: null; one run: no spread over seeds', () => {
    expect(cellJobs([{ jobs: null }, {}])).toBeNull();
    expect(cellJobs([run(100, 0)])!.seeds).toBeUndefined();
    expect(describeJobs(cellJobs([run(100, 0), run(120, 0)])!)).toMatch(/^0\.0 duplicates per 1,000 jobs \(95% CI 0\.0–17\.2; 0 in every seed\)/);
  });

  it("a run's stats read from its jobs verdict, and nothing from another checker's", () => {
    expect(runJobsOf({ jobs: 3, duplicates: 1, lost: 0, wasted: 2, spanS: 10, faultsApplied: 1 })).toEqual({
      jobs: 3,
      duplicates: 1,
      lost: 0,
      wasted: 2,
      spanS: 10,
      faultsApplied: 1,
    });
    expect(runJobsOf({ sections: 3 })).toBeNull();
  });

  it("the outcome line's words", () => {
    expect(
      formatJobs({ jobs: 200, duplicates: 2, lost: 1, wasted: 3, ciLow: 0.0027, ciHigh: 0.0358, spanS: 60, faultsApplied: 2, duplicatesPerHour: 120 }),
    ).toBe('jobs: 200 done, 2 done twice (10.0 per 1,000, 95% CI 2.7–35.8), 1 lost, 3 wasted run(s) refused; 120.0 duplicates per hour at 2.0 faults a minute');
    expect(formatJobs({ sections: 1 })).toBeUndefined();
  });
});
