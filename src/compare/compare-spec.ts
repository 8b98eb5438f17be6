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
import type { LockWorkload } from '../../core/checkers/lock/verdict.js';
import { FAULT_KINDS, type FaultKind } from '../../core/generator/faults/registry.js';
import type { TriggerEvent } from '../../core/generator/fault-window.js';
import { splitAim, type Aims } from '../../core/generator/aimed-schedule.js';
import { aimedScript } from '../../core/plan/run-plan.js';
import { type RunOptions } from '../../core/plan/run-options.js';
import { BUILTIN_CLIENT, namedClient, type ClientChoice } from '../../runtime/runner/client-registry.js';
import { featureMissing, tokenKindExcludes } from '../../core/client-modes.js';
import type { ClientTokenKind } from '../../core/client-protocol.js';
import { UsageError } from '../../core/errors.js';
import { type LockBackend, type ResourceMode, notApplicable } from '../../core/vocabulary.js';

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
  /**
   * The lock clients (`--lock-clients`), a dimension of the matrix: each runs on the backends it
   * supports among `backends`. Absent: the built-in client only (every comparison before it).
   */
  clients?: ClientChoice[];
}

/** A row of the matrix: a lock service with the client that drives it. */
export interface LockRow {
  /** `backend` for the built-in client, `client@backend` for another. */
  label: string;
  backend: LockBackend;
  /** The client's name (ClientChoice.name); null for the built-in one. */
  client: string | null;
  /** The token kind the client announces, when known before it runs; null: the backend's built-in kind is planned. */
  token: ClientTokenKind | null;
}

export interface Cell {
  /** `row/resource/nemesis` (the row is the backend for the built-in client). */
  id: string;
  /** The row's label: `backend`, or `client@backend` (absent in a scenario's cells: the backend). */
  lock?: string;
  /** The client's name; null or absent for the built-in client. */
  client?: string | null;
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

/**
 * A nemesis column's faults: `none` is no fault, `a+b` is both at once, and `fault@event` is the fault
 * aimed at a lock event (`client-pause@holder-read`: each pause waits for a holder between its read and
 * its write; ../../workloads/generator/aimed-schedule.ts).
 */
export function parseNemesisLabel(label: string): FaultKind[] {
  return Object.keys(parseNemesisColumn(label)) as FaultKind[];
}

/** A nemesis column's aimed faults and their events (none: every fault at its seeded time). */
export function nemesisAims(label: string): Aims {
  const aims: Aims = {};
  for (const [fault, on] of Object.entries(parseNemesisColumn(label))) if (on !== undefined) aims[fault as FaultKind] = on;
  return aims;
}

/** Each fault of a column, in order, with the event it is aimed at (or undefined). */
function parseNemesisColumn(label: string): Partial<Record<FaultKind, TriggerEvent | undefined>> {
  if (label === 'none') return {};
  const parts = label.split('+').map((p) => splitAim(p, label));
  for (const { fault } of parts) {
    if (!(FAULT_KINDS as readonly string[]).includes(fault)) {
      throw new UsageError(
        `Expected \`--nemeses\` to list none or faults among ${FAULT_KINDS.join(', ')} (joined by + to combine, each optionally aimed at a lock event: client-pause@holder-read), got \`${label}\``,
      );
    }
  }
  // `partition+partition` is one fault named twice: a column that looks like a combination and is not one.
  const faults = parts.map((p) => p.fault);
  const repeated = faults.find((f, i) => faults.indexOf(f) !== i);
  if (repeated !== undefined) throw new UsageError(`Expected each fault at most once in a \`--nemeses\` column, got \`${label}\` (${repeated} twice)`);
  return Object.fromEntries(parts.map((p) => [p.fault, p.on]));
}

/** Why a column's aims cannot strike in a cell, or undefined: a mark happens only where the resource takes marks. */
export function aimsNotApplicable(aims: Aims, resource: ResourceMode): string | undefined {
  const marks = resource === 'cas-unique' || resource === 'cas-unique-nonatomic';
  if (!marks && Object.values(aims).includes('mark'))
    return `the mark event happens only in the cas-unique modes (a holder marks the row with its token), not with the resource mode ${resource}`;
  return undefined;
}

export function cellId(backend: string, resource: string, nemesis: string): string {
  return `${backend}/${resource}/${nemesis}`;
}

export function runId(cell: string, seed: number): string {
  return `${cell}#${seed}`;
}

/** The matrix's rows: each client on each of `backends` it runs on (client-major); the built-in client alone by default. */
export function lockRows(spec: Pick<CompareSpec, 'backends' | 'clients'>): LockRow[] {
  const clients = spec.clients ?? [{ name: BUILTIN_CLIENT, command: null, backends: null, token: null }];
  return clients.flatMap((c) =>
    spec.backends
      .filter((b) => c.backends === null || c.backends.includes(b))
      .map((backend) =>
        c.name === BUILTIN_CLIENT
          ? { label: backend, backend, client: null, token: null }
          : { label: `${c.name}@${backend}`, backend, client: c.name, token: c.token },
      ),
  );
}

/**
 * A row from its label alone (a run directory found by --merge): `backend`, or `client@backend` with
 * the token kind from the registry when the name is known there.
 */
export function rowOfLabel(label: string): LockRow {
  const at = label.lastIndexOf('@');
  if (at < 0) return { label, backend: label as LockBackend, client: null, token: null };
  const client = label.slice(0, at);
  return { label, backend: label.slice(at + 1) as LockBackend, client, token: namedClient(client)?.token ?? null };
}

/** Every cell of the matrix, row-major, in the order the axes are given (a bare backend is its built-in client's row). */
export function matrixCells(rows: readonly (LockBackend | LockRow)[], resources: readonly ResourceMode[], nemeses: readonly string[]): Cell[] {
  const cells: Cell[] = [];
  for (const given of rows) {
    const row: LockRow = typeof given === 'string' ? { label: given, backend: given, client: null, token: null } : given;
    for (const resource of resources) {
      for (const nemesis of nemeses) {
        const faults = parseNemesisLabel(nemesis);
        // A client whose facts the registry knows: its modes from its token kind and features (core/client-modes.ts).
        const known = row.token === null ? undefined : { token: row.token, features: namedClient(row.client ?? '')?.features };
        const excluded =
          known === undefined
            ? undefined
            : (tokenKindExcludes(known, resource) ?? (known.features === undefined ? undefined : featureMissing(known, resource)));
        const why =
          excluded !== undefined
            ? `${row.client} ${excluded}`
            : (notApplicable(row.backend, resource, faults) ?? aimsNotApplicable(nemesisAims(nemesis), resource));
        cells.push({
          id: cellId(row.label, resource, nemesis),
          lock: row.label,
          client: row.client,
          backend: row.backend,
          resource,
          nemesis,
          faults,
          notApplicable: why ?? null,
        });
      }
    }
  }
  return cells;
}

/** The whole comparison's runs: applicable cells only, seed-major. */
export function planRuns(spec: CompareSpec): PlannedRun[] {
  const cells = matrixCells(lockRows(spec), spec.resources, spec.nemeses).filter((c) => c.notApplicable === null);
  const runs: PlannedRun[] = [];
  for (const seed of spec.seeds) {
    for (const cell of cells) runs.push({ index: runs.length, id: runId(cell.id, seed), cellId: cell.id, seed });
  }
  return runs;
}

/**
 * The order a directory runs its runs in (pure): each backend's runs one
 * after another, so one warm cluster serves them all (runtime/runner/warm-pool.ts),
 * backends in the order they first appear, each backend's runs in plan order.
 * Only the order changes: indexes and ids stay the plan's, so shards and
 * resume mean what they meant.
 */
export function executionOrder<R extends PlannedRun>(runs: readonly R[], backendOf: (run: R) => string): R[] {
  const byBackend = new Map<string, R[]>();
  for (const r of runs) byBackend.set(backendOf(r), [...(byBackend.get(backendOf(r)) ?? []), r]);
  return [...byBackend.values()].flat();
}

/** The options of one run; `resultsDir` is where runLockTest puts its run directory. */
export function runOptionsFor(spec: CompareSpec, cell: Cell, seed: number, resultsDir: string): RunOptions {
  const command = cell.client == null ? null : spec.clients?.find((c) => c.name === cell.client)?.command;
  const o: RunOptions = {
    ...spec.run,
    backend: cell.backend,
    resource: cell.resource,
    workload: spec.workload,
    nemesis: cell.faults,
    seed,
    resultsDir,
    ...(command ? { client: command } : {}),
  };
  // An aimed column's runs carry their windows as a script: each replays as a plain `--script` run.
  const aims = nemesisAims(cell.nemesis);
  return Object.keys(aims).length === 0 ? o : { ...o, script: aimedScript(o, aims) };
}

/** A run's expected wall time before any has finished: its time limit, recovery, and ~5 s of setup and teardown (a warm cluster's reset, the clients' start). */
export function expectedRunMs(run: SharedRunOptions): number {
  return run.timeLimitS * 1000 + run.recoverMs + 5_000;
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
