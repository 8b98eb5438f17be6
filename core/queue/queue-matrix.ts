/**
 * The queue matrix (pure): the cells `npm run queues` runs to write docs/queues.md's
 * generated table, one real run each. Every library of QUEUE_LIBRARIES under a worker
 * stalled past its lock (client-pause) in each resource mode, and under a worker killed
 * mid-job (client-kill) without a remedy; a mode a library cannot serve is a cell all the
 * same, n/a with the reason, so the table shows every library in every mode.
 *
 * The settings are the run command's own defaults written out, so a cell's replay command
 * (queueReplayCommand) gives the same run from the CLI.
 */
import { QUEUE_LIBRARIES, QUEUE_MODES, modeNotServed, type QueueLibrary, type QueueMode } from './queue-libraries.js';
import type { QueueFault, QueueRunOptions } from './queue-options.js';

export interface QueueCell {
  /** A file-safe name, unique in the matrix: `<library>.<fault>.<mode>`. */
  id: string;
  library: QueueLibrary;
  fault: QueueFault;
  mode: QueueMode;
  /** Why the library cannot serve the mode (no run), or undefined. */
  notServed?: string;
}

/** The faults of the matrix and the modes each is run in: a kill is about lost jobs, which no remedy at the resource changes. */
export const MATRIX_FAULTS: readonly { fault: QueueFault; modes: readonly QueueMode[] }[] = [
  { fault: 'client-pause', modes: QUEUE_MODES },
  { fault: 'client-kill', modes: ['none'] },
];

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
    for (const { fault, modes } of MATRIX_FAULTS)
      for (const mode of modes) {
        const notServed = modeNotServed(library, mode);
        cells.push({ id: `${library.name}.${fault}.${mode}`, library, fault, mode, ...(notServed !== undefined ? { notServed } : {}) });
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
    backend: cell.library.server,
    client: cell.library.name,
    resource: cell.mode,
    nemesis: [cell.fault],
    ...settings,
    resultsDir,
  };
}
