/**
 * The claims people make about job queues, as rows of real runs over several seeds
 * (pure): what `npm run queues -- --claims` runs for docs/queues.md's "The claims".
 *
 * - "At least once": what a queue's redelivery costs without a remedy, per 1,000 jobs,
 *   at one stall a minute per worker (five workers, a stall every 12 s somewhere).
 * - "Make your jobs idempotent": does the job's id as a key hold under every fault that
 *   hands a job out again (a stalled worker, a killed one, the server killed with its
 *   AOF, so the jobs active at the kill come back)?
 * - "Use the attempt number as a fence": for the libraries whose attempt number rises
 *   with each delivery, and Bull's documented one, which does not.
 *
 * Each row runs at CLAIM_SEEDS seeds (consecutive from the first), so a rate comes with
 * the spread between seeds as well as within a run.
 */
import type { RedisPersistence } from '../plan/redis-persistence.js';
import { queueLibrary, type QueueLibrary, type QueueMode } from './queue-libraries.js';
import type { QueueFault, QueueRunOptions } from './queue-options.js';
import { MATRIX_SETTINGS, type MatrixSettings } from './queue-matrix.js';

export const CLAIM_SEEDS = 5;

export interface ClaimRow {
  library: string;
  mode: QueueMode;
  fault: QueueFault;
  /** Settings apart from the matrix's, and why. */
  settings?: Partial<MatrixSettings>;
  redisPersistence?: RedisPersistence;
}

export interface QueueClaim {
  id: string;
  /** The claim as people say it. */
  claim: string;
  /** What the rows measure, for the reader. */
  question: string;
  rows: readonly ClaimRow[];
}

/** One stall a minute per worker: five workers, a window every 12 s (7 s quiet + 5 s stalled), for a minute. */
const A_STALL_A_MINUTE: Partial<MatrixSettings> = { timeLimitS: 60, intervalMs: 7000, durationMs: 5000 };
/** A 600 ms job, so a backlog waits in the queue and jobs are active when the server dies. */
const BACKLOG: Partial<MatrixSettings> = { jobMs: 600 };

export const QUEUE_CLAIMS: readonly QueueClaim[] = [
  {
    id: 'at-least-once',
    claim: '"At least once" (BullMQ, pg-boss): a job may run twice, rarely',
    question: 'how many jobs per 1,000 run twice without a remedy, at one stall a minute per worker',
    rows: [
      { library: 'bullmq', mode: 'none', fault: 'client-pause', settings: A_STALL_A_MINUTE },
      { library: 'pg-boss', mode: 'none', fault: 'client-pause', settings: A_STALL_A_MINUTE },
    ],
  },
  {
    id: 'idempotent',
    claim: '"Make your jobs idempotent"',
    question: "whether the job's id as a key holds under each fault that hands a job out again",
    rows: [
      { library: 'bullmq', mode: 'idempotent', fault: 'client-pause' },
      { library: 'bullmq', mode: 'idempotent', fault: 'client-kill' },
      { library: 'bullmq', mode: 'idempotent', fault: 'server-kill', settings: BACKLOG, redisPersistence: 'aof-everysec' },
    ],
  },
  {
    id: 'attempt-fence',
    claim: '"Use the attempt number as a fence"',
    question: "whether a stalled worker's late effect is refused when the job's attempt number fences it",
    rows: [
      { library: 'bullmq', mode: 'attempt-fence', fault: 'client-pause' },
      { library: 'pg-boss', mode: 'attempt-fence', fault: 'client-pause' },
      { library: 'bull', mode: 'attempt-fence', fault: 'client-pause' },
      { library: 'bull-attempts-made', mode: 'attempt-fence', fault: 'client-pause' },
    ],
  },
];

export interface ClaimCell {
  /** File-safe and unique: `claim.<claim>.<library>.<fault>.<mode>.s<seed>`. */
  id: string;
  claim: QueueClaim;
  row: ClaimRow;
  /** The row's key within its claim, shared by its seeds. */
  rowKey: string;
  library: QueueLibrary;
  seed: number;
}

export function claimCells(firstSeed: number, seeds = CLAIM_SEEDS, claims: readonly QueueClaim[] = QUEUE_CLAIMS): ClaimCell[] {
  const cells: ClaimCell[] = [];
  for (const claim of claims)
    for (const row of claim.rows) {
      const library = queueLibrary(row.library);
      if (library === undefined) throw new Error(`claim ${claim.id} names an unknown library ${row.library}`);
      const rowKey = `${row.library}.${row.fault}.${row.mode}`;
      for (let i = 0; i < seeds; i++) {
        const seed = firstSeed + i;
        cells.push({ id: `claim.${claim.id}.${rowKey}.s${seed}`, claim, row, rowKey, library, seed });
      }
    }
  return cells;
}

export function claimCellOptions(cell: ClaimCell, resultsDir: string): QueueRunOptions {
  return {
    backend: cell.library.server,
    client: cell.library.name,
    resource: cell.row.mode,
    nemesis: [cell.row.fault],
    ...MATRIX_SETTINGS,
    ...cell.row.settings,
    seed: cell.seed,
    resultsDir,
    ...(cell.row.redisPersistence !== undefined ? { redisPersistence: cell.row.redisPersistence } : {}),
  };
}
