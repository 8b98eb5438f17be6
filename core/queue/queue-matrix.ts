/**
 * The queue matrix (pure): the cells `npm run queues` runs to write docs/queues.md's
 * generated table, one real run each. Every library of QUEUE_LIBRARIES under a worker
 * stalled past its lock (client-pause) in each resource mode; without a remedy, under a
 * worker killed mid-job (client-kill) and under the queue's server killed (server-kill: a
 * Redis without persistence, the default; a Redis with its AOF, every second; behind
 * Sentinels, a failover, for the libraries that follow one); a mode a library cannot serve
 * is a cell all the same, n/a with the reason, so the table shows every library in every mode.
 *
 * The settings are the run command's own defaults written out, with a row's own where its
 * danger needs them (a server kill: jobs held 600 ms, so that a backlog waits in the queue
 * when it dies), so a cell's replay command (queueReplayCommand) gives the same run from the CLI.
 */
import { QUEUE_LIBRARIES, QUEUE_MODES, modeNotServed, type QueueLibrary, type QueueMode, type QueueServer } from './queue-libraries.js';
import type { QueueFault, QueueRunOptions } from './queue-options.js';

/** A server-kill row's server: as the library runs it (Redis without persistence, or PostgreSQL), Redis with its AOF, or behind Sentinels. */
export type MatrixVariant = 'aof' | 'sentinel';

export interface QueueCell {
  /** A file-safe name, unique in the matrix: `<library>.<fault>[-<variant>].<mode>`. */
  id: string;
  library: QueueLibrary;
  fault: QueueFault;
  mode: QueueMode;
  variant?: MatrixVariant;
  /** The server the cell's run starts (`--backend`). */
  backend: QueueServer;
  /** What the table's server column says. */
  serverLabel: string;
  /** The row's own settings over the matrix's (a server kill's backlog). */
  settings?: MatrixRow['settings'];
  /** Why the library cannot serve the mode (no run), or undefined. */
  notServed?: string;
}

/** A row of the matrix: a fault, the modes it is run in, its server's variant and its own settings. */
export interface MatrixRow {
  fault: QueueFault;
  modes: readonly QueueMode[];
  variant?: MatrixVariant;
  settings?: Partial<Pick<QueueRunOptions, 'jobMs' | 'intervalMs' | 'durationMs' | 'redisPersistence'>>;
}

/** Jobs held 600 ms: five workers fall behind two jobs a second each, and a backlog waits in the queue when its server dies. */
const BACKLOG = { jobMs: 600 } as const;

/**
 * The faults of the matrix and the modes each is run in: a kill (of a worker or of the server) is about lost
 * jobs and runs twice without a remedy; the remedies are weighed under the stall, and in "The claims".
 */
export const MATRIX_FAULTS: readonly MatrixRow[] = [
  { fault: 'client-pause', modes: QUEUE_MODES },
  { fault: 'client-kill', modes: ['none'] },
  { fault: 'server-kill', modes: ['none'], settings: BACKLOG },
  { fault: 'server-kill', modes: ['none'], variant: 'aof', settings: { ...BACKLOG, redisPersistence: 'aof-everysec' } },
  // One failover a run: the master down 10 s (the Sentinels promote a replica within about 3 s), killed 10 s in.
  { fault: 'server-kill', modes: ['none'], variant: 'sentinel', settings: { ...BACKLOG, intervalMs: 10_000, durationMs: 10_000 } },
];

/** Whether a row applies to a library: the AOF to a Redis queue, the Sentinels to a library whose program follows them. */
function rowApplies(row: MatrixRow, library: QueueLibrary): boolean {
  if (row.variant === 'aof') return library.server === 'redis';
  if (row.variant === 'sentinel') return library.sentinel === true;
  return true;
}

function serverOf(row: MatrixRow, library: QueueLibrary): { backend: QueueServer; serverLabel: string } {
  if (row.variant === 'sentinel') return { backend: 'redis-sentinel', serverLabel: 'redis behind Sentinels' };
  if (row.variant === 'aof') return { backend: 'redis', serverLabel: 'redis (AOF, every second)' };
  return { backend: library.server, serverLabel: row.fault === 'server-kill' && library.server === 'redis' ? 'redis (no persistence)' : library.server };
}

/** The run's settings: `fencecheck run --workload queue`'s defaults, with a 30 s time limit and seed 1. */
export const MATRIX_SETTINGS = {
  timeLimitS: 30,
  workers: 5,
  rate: 2,
  jobMs: 200,
  lockMs: 2000,
  intervalMs: 5000,
  durationMs: 5000,
  recoverMs: 5000,
  callTimeoutMs: 1000,
  seed: 1,
} as const;

export type MatrixSettings = { -readonly [K in keyof typeof MATRIX_SETTINGS]: number };

export function queueMatrixCells(libraries: readonly QueueLibrary[] = QUEUE_LIBRARIES): QueueCell[] {
  const cells: QueueCell[] = [];
  for (const library of libraries)
    for (const row of MATRIX_FAULTS.filter((r) => rowApplies(r, library)))
      for (const mode of row.modes) {
        const notServed = modeNotServed(library, mode);
        const fault = row.variant === undefined ? row.fault : `${row.fault}-${row.variant}`;
        cells.push({
          id: `${library.name}.${fault}.${mode}`,
          library,
          fault: row.fault,
          mode,
          ...(row.variant !== undefined ? { variant: row.variant } : {}),
          ...(row.settings !== undefined ? { settings: row.settings } : {}),
          ...serverOf(row, library),
          ...(notServed !== undefined ? { notServed } : {}),
        });
      }
  return cells;
}

/** The libraries a comma-separated `--only` names, in the matrix's order; an unknown name is reported, not skipped. */
export function librariesNamed(only: string | undefined): { libraries: QueueLibrary[]; unknown: string[] } {
  if (only === undefined) return { libraries: [...QUEUE_LIBRARIES], unknown: [] };
  const names = only
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  return {
    libraries: QUEUE_LIBRARIES.filter((l) => names.includes(l.name)),
    unknown: names.filter((n) => !QUEUE_LIBRARIES.some((l) => l.name === n)),
  };
}

export function cellOptions(cell: QueueCell, settings: MatrixSettings, resultsDir: string): QueueRunOptions {
  return {
    backend: cell.backend,
    client: cell.library.name,
    resource: cell.mode,
    nemesis: [cell.fault],
    ...settings,
    ...(cell.settings ?? {}),
    resultsDir,
  };
}
