/**
 * The runs behind docs/queues.md's generated tables: a list of cells (a matrix cell, or
 * one seed of a claim's row), each a real queue run on one of N slots at once, each kept
 * as a record (DIR/cells/<id>.json) beside its run directory (DIR/runs), so an interrupted
 * set resumes where it stopped (a cell with a record is not run again) and a render reads
 * the records alone. A cell whose run fails with fencecheck's own error is recorded with
 * it (not measured) and the rest go on; anything else is a bug and ends the set.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FencecheckError, UsageError } from '../../core/errors.js';
import { queueReplayCommand, type QueueRunOptions } from '../../core/queue/queue-options.js';
import { outcomeExitCode } from '../../core/run-files/stored-outcome.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import { Lanes } from '../hunt/lanes.js';
import type { QueueCellRecord } from './render-queues-md.js';

export interface QueueCellJob<R extends QueueCellRecord> {
  id: string;
  /** What the record says before the run's outcome is added. */
  base: R;
  /** The run, or undefined when the cell is n/a (its base says why). */
  options: QueueRunOptions | undefined;
}

/** How long a lane waits for its slot when another command holds it. */
const SLOT_WAIT_MS = 10 * 60_000;

/** Every job without a record, on `lanes` slots (1..lanes) at once. */
export async function runQueueCells<R extends QueueCellRecord>(
  jobs: readonly QueueCellJob<R>[],
  dir: string,
  lanes: number,
  say: (line: string) => void,
): Promise<void> {
  mkdirSync(join(dir, 'cells'), { recursive: true });
  const { runQueueTest } = await import('../run/run-queue-test.js');
  const pool = new Lanes(lanes);
  const todo = jobs.filter((j) => !existsSync(recordPath(dir, j.id)));
  let done = 0;
  await Promise.all(
    todo.map((job) =>
      pool.use(async (lane) => {
        if (job.options === undefined) return writeRecord(dir, job.id, job.base);
        const slot = lane + 1;
        const started = Date.now();
        const log = (l: string): void => say(`[slot ${slot} ${job.id}] ${l}`);
        try {
          const r = await runQueueTest(job.options, { log, busyTimeoutMs: SLOT_WAIT_MS, slot });
          const queue = r.results.checkers.find((c) => c.checker === 'total-queue');
          writeRecord(dir, job.id, {
            ...job.base,
            outcome: r.results.outcome,
            exitCode: outcomeExitCode(r.results),
            counts: queue?.stats ?? {},
            anomalies: (queue?.anomalies ?? []).slice(0, 3).map((a) => a.message),
            runDir: r.runDir,
            replay: r.replay,
            startedAt: new Date(started).toISOString(),
            durationMs: Date.now() - started,
          });
          say(`queues: ${++done}/${todo.length} ${job.id}: ${r.results.outcome} (${queue?.summary ?? 'no verdict'})`);
        } catch (err) {
          if (!(err instanceof FencecheckError)) throw err;
          writeRecord(dir, job.id, { ...job.base, error: err.message, replay: queueReplayCommand(job.options) });
          say(`queues: ${++done}/${todo.length} ${job.id}: not measured: ${err.message}`);
        }
      }),
    ),
  );
}

/** A job's record, or its base saying it was not run (a smaller or interrupted set); the base's facts win over the file's. */
export function readQueueCellRecord<R extends QueueCellRecord>(dir: string, job: QueueCellJob<R>): R {
  const file = recordPath(dir, job.id);
  if (!existsSync(file)) return job.options === undefined ? job.base : { ...job.base, error: 'not run' };
  try {
    return { ...(JSON.parse(readFileSync(file, 'utf8')) as R), ...job.base };
  } catch (err) {
    throw new UsageError(
      `Expected ${file} to be a cell record (JSON), got: ${(err as Error).message}`,
      'Delete it to run that cell again (--out the same directory).',
    );
  }
}

/** The set's wall time, from its first run's start to its last run's end, beside the runs' own sum. */
export function wallOf(records: readonly QueueCellRecord[]): string {
  const runs = records.filter((r) => r.startedAt !== undefined && r.durationMs !== undefined);
  if (runs.length === 0) return 'no run measured';
  const start = Math.min(...runs.map((r) => Date.parse(r.startedAt!)));
  const end = Math.max(...runs.map((r) => Date.parse(r.startedAt!) + r.durationMs!));
  const sum = runs.reduce((t, r) => t + r.durationMs!, 0);
  const min = (ms: number): string => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${min(end - start)} of wall time for ${runs.length} runs that took ${min(sum)} one after another`;
}

function recordPath(dir: string, id: string): string {
  return join(dir, 'cells', `${id}.json`);
}

function writeRecord(dir: string, id: string, record: QueueCellRecord): void {
  writeFileAtomic(recordPath(dir, id), JSON.stringify(record, null, 2) + '\n');
}
