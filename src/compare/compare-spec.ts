/**
 * A comparison is a matrix: lock backends × resource modes × nemeses, each
 * cell run once per seed with the same shared options. This file turns the
 * matrix's description (a `CompareSpec`) into cells and into one ordered list
 * of runs, all pure.
 *
 * The run list is the contract that makes sharding and resuming work across
 * machines and restarts: the same spec always yields the same list, run k is
 * the k-th element, and its identity (`cell#seed`) never depends on where or
 * when it ran. It is seed-major (every cell's first seed, then every cell's
 * second, …) so that a comparison cut short still covers the whole matrix.
 */
import type { LockWorkload } from '../../checkers/lock/verdict.js';
import { FAULT_KINDS, type FaultKind } from '../../workloads/generator/nemesis-schedule.js';
import { type RunOptions } from '../../workloads/runner/run-options.js';
import { UsageError } from '../errors.js';
import { type LockBackend, type ResourceMode, notApplicable } from '../../workloads/vocabulary.js';

/** The options every run of a comparison shares. */
export type SharedRunOptions = Omit<RunOptions, 'backend' | 'resource' | 'workload' | 'nemesis' | 'seed' | 'resultsDir'>;

export interface CompareSpec {
  backends: LockBackend[];
  resources: ResourceMode[];
  /** One matrix column each: `none`, one fault, or faults joined by `+` (`partition+kill`). */
  nemeses: string[];
  seeds: number[];
  workload: LockWorkload;
  run: SharedRunOptions;
}

export interface Cell {
  /** `backend/resource/nemesis`. */
  id: string;
  backend: LockBackend;
  resource: ResourceMode;
  nemesis: string;
  faults: FaultKind[];
  /** Why the cell cannot run (from notApplicable), or null. */
  notApplicable: string | null;
}

export interface PlannedRun {
  /** Position in the whole comparison's run list: what sharding divides. */
  index: number;
  /** `cell#seed`. */
  id: string;
  cellId: string;
  seed: number;
}

/** A nemesis column's faults: `none` is no fault, `a+b` is both at once. */
export function parseNemesisLabel(label: string): FaultKind[] {
  if (label === 'none') return [];
  const faults = label.split('+');
  for (const f of faults) {
    if (!(FAULT_KINDS as readonly string[]).includes(f)) {
      throw new UsageError(`Expected \`--nemeses\` to list none or faults among ${FAULT_KINDS.join(', ')} (joined by + to combine), got \`${label}\``);
    }
  }
  // `partition+partition` is one fault named twice: a column that looks like a combination and is not one.
  const repeated = faults.find((f, i) => faults.indexOf(f) !== i);
  if (repeated !== undefined) throw new UsageError(`Expected each fault at most once in a \`--nemeses\` column, got \`${label}\` (${repeated} twice)`);
  return faults as FaultKind[];
}

export function cellId(backend: string, resource: string, nemesis: string): string {
  return `${backend}/${resource}/${nemesis}`;
}

export function runId(cell: string, seed: number): string {
  return `${cell}#${seed}`;
}

/** Every cell of the matrix, backend-major, in the order the axes are given. */
export function matrixCells(backends: readonly LockBackend[], resources: readonly ResourceMode[], nemeses: readonly string[]): Cell[] {
  const cells: Cell[] = [];
  for (const backend of backends) {
    for (const resource of resources) {
      for (const nemesis of nemeses) {
        const faults = parseNemesisLabel(nemesis);
        const why = notApplicable(backend, resource, faults);
        cells.push({ id: cellId(backend, resource, nemesis), backend, resource, nemesis, faults, notApplicable: why ?? null });
      }
    }
  }
  return cells;
}

/** The whole comparison's runs: applicable cells only, seed-major. */
export function planRuns(spec: CompareSpec): PlannedRun[] {
  const cells = matrixCells(spec.backends, spec.resources, spec.nemeses).filter((c) => c.notApplicable === null);
  const runs: PlannedRun[] = [];
  for (const seed of spec.seeds) {
    for (const cell of cells) runs.push({ index: runs.length, id: runId(cell.id, seed), cellId: cell.id, seed });
  }
  return runs;
}

/** The options of one run; `resultsDir` is where runLockTest puts its run directory. */
export function runOptionsFor(spec: CompareSpec, cell: Cell, seed: number, resultsDir: string): RunOptions {
  return { ...spec.run, backend: cell.backend, resource: cell.resource, workload: spec.workload, nemesis: cell.faults, seed, resultsDir };
}

/** A run's expected wall time before any has finished: its time limit, recovery, and ~20 s of setup and teardown. */
export function expectedRunMs(run: SharedRunOptions): number {
  return run.timeLimitS * 1000 + run.recoverMs + 20_000;
}

/** Whether two specs describe the same comparison (key order does not matter). */
export function sameSpec(a: CompareSpec, b: CompareSpec): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** One line for a person: the workload and the options that shape every run. */
export function describeSpec(spec: CompareSpec): string {
  const r = spec.run;
  return `${spec.workload}, ${r.timeLimitS} s per run, ${r.clients} clients, TTL ${r.ttlMs} ms, hold ${r.holdMs} ms, rate ${r.rate}/s`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
