/**
 * The matrix's safe cells weighed (pure): each safe cell gets a job per extra seed (none for an unsafe or
 * untested cell), and its line says what its tested seeds rule out together, counts the untested ones apart,
 * and names a seed that broke it with its replay.
 */
import { describe, expect, it } from 'vitest';
import type { QueueCellRecord } from '../../src/queue/render-queues-md.js';
import { weighId, weighJobs, weighLines } from '../../src/queue/weigh-queue-cells.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';
import { MATRIX_SETTINGS } from '../../core/queue/queue-matrix.js';

const cell = (id: string, outcome: string, replay?: string): QueueCellRecord => ({
  id,
  library: 'bullmq',
  server: 'redis',
  fault: 'client-pause',
  mode: 'idempotent',
  outcome,
  ...(replay ? { replay } : {}),
});
const OPTIONS: QueueRunOptions = { backend: 'redis', client: 'bullmq', resource: 'idempotent', nemesis: ['client-pause'], ...MATRIX_SETTINGS, resultsDir: 'r' };

describe('weighing safe cells', () => {
  it('makes a job per extra seed of each safe cell only', () => {
    const jobs = weighJobs([cell('a', 'safe'), cell('b', 'unsafe'), cell('c', 'untested')], (_, seed) => ({ ...OPTIONS, seed }), 1, 5);
    expect(jobs.map((j) => j.id)).toEqual(['a.seed-2', 'a.seed-3', 'a.seed-4', 'a.seed-5']);
    expect(jobs.map((j) => j.options!.seed)).toEqual([2, 3, 4, 5]);
  });

  it('says the weight of the tested seeds, the untested apart, and a seed that broke it', () => {
    const records = [cell('a', 'safe'), cell('b', 'safe')];
    const extra = [
      cell(weighId('a', 2), 'safe'),
      cell(weighId('a', 3), 'untested'),
      cell(weighId('b', 2), 'safe'),
      cell(weighId('b', 3), 'unsafe', 'fencecheck run --seed 3'),
    ];
    const lines = weighLines(records, extra, 1, 3);
    expect(lines[0]).toMatch(/--weigh 3.*seeds 2–3/);
    expect(lines).toContain('- `a`: safe in 2 tested seeds of 3, 1 untested: a failure that shows in at least 78 % of runs would have been found');
    expect(lines).toContain('- `b`: **UNSAFE at another seed**: 1 of 3 seeds unsafe; `fencecheck run --seed 3`');
    expect(weighLines([cell('x', 'unsafe')], [], 1, 3)).toEqual([]);
  });
});
