/**
 * A matrix cell aggregated over its seeds: how many runs were planned and
 * finished, how many were invalid (the rate is invalid / finished), the
 * anomalies by kind summed over runs, the writes a fence rejected, and one
 * outcome for colouring and for expectations:
 *
 *   not-applicable  the combination cannot run (notApplicable says why)
 *   not-run         no run of it is planned here (another shard, another plan)
 *   unsafe          at least one run found an anomaly
 *   unknown         no run invalid, but one was unknown or the tool failed
 *   incomplete      no run invalid or unknown, but planned runs are missing
 *   untested        every planned run finished valid, but none showed that
 *                   the danger occurred: no fault struck, or the lock never
 *                   failed (no double hold, no refusal) (checkers/lock/evidence.ts)
 *   safe            every planned run finished valid, and at least one of
 *                   them with the faults struck and the protection tested
 *
 * The order matters: one invalid run is evidence whatever else happened, and
 * a cell is only safe when every run it promised was checked and valid, and
 * something put the protection to the test. Only the deciding checkers count
 * (run-summary.ts); the others' anomalies are kept as information.
 */
import type { Cell } from './compare-spec.js';
import { plural } from './format-units.js';
import type { RunCost, RunSummary, WriteCounts } from './run-summary.js';
import { formatWeight } from '../../core/checkers/lock/weight.js';

export type CellOutcome = 'safe' | 'unsafe' | 'unknown' | 'incomplete' | 'untested' | 'not-applicable' | 'not-run';

/** What tested the protection, summed over a cell's runs. */
export interface CellEvidence {
  /** Fault windows planned and applied, over the runs that recorded evidence. */
  planned: number;
  applied: number;
  skipped: number;
  failed: number;
  doubleHolds: number;
  refusals: number;
  /** Without a lock: sections that overlapped another (evidence.ts), summed; absent with a lock. */
  overlaps?: number;
}

export interface CellSummary extends Cell {
  /** Seeds planned in scope. */
  planned: number[];
  /** Finished runs, by seed. */
  runs: RunSummary[];
  missingSeeds: number[];
  valid: number;
  invalid: number;
  /** Unknown verdicts and tool errors. */
  unknown: number;
  /** invalid / finished runs; null when nothing finished. */
  rate: number | null;
  /** Deciding checkers' anomalies by kind. */
  anomalies: Record<string, number>;
  /** Non-deciding checkers' anomalies by kind (information). */
  informational: Record<string, number>;
  evidence: CellEvidence;
  /** Valid runs without evidence, and why the first of them is untested. */
  untestedRuns: number;
  untestedWhy: string | null;
  writes: WriteCounts | null;
  uselessRuns: number;
  /** The cost over the runs that measured one: sections/s averaged, counts summed, the worst p99; null when none did. */
  cost: (RunCost & { runs: number }) | null;
  durationMs: number;
  outcome: CellOutcome;
}

/** The runs' costs combined: mean throughput, summed counts, the worst section p99. */
export function cellCost(runs: readonly RunSummary[]): CellSummary['cost'] {
  const costs = runs.flatMap((r) => (r.cost ? [r.cost] : []));
  if (costs.length === 0) return null;
  const sum = (k: keyof RunCost): number => costs.reduce((t, c) => t + c[k], 0);
  return {
    runs: costs.length,
    sectionsPerSecond: Math.round((100 * sum('sectionsPerSecond')) / costs.length) / 100,
    completed: sum('completed'),
    refusals: sum('refusals'),
    retries: sum('retries'),
    timeouts: sum('timeouts'),
    sectionP99Ms: Math.max(...costs.map((c) => c.sectionP99Ms)),
  };
}

export function summarizeCell(cell: Cell, plannedSeeds: readonly number[], runs: readonly RunSummary[]): CellSummary {
  const sorted = [...runs].sort((a, b) => a.seed - b.seed);
  const seen = new Set(sorted.map((r) => r.seed));
  const count = (pred: (r: RunSummary) => boolean): number => sorted.filter(pred).length;
  const invalid = count((r) => r.status === 'invalid');
  const unknown = count((r) => r.status === 'unknown' || r.status === 'error');
  const anomalies: Record<string, number> = {};
  const informational: Record<string, number> = {};
  const evidence: CellEvidence = { planned: 0, applied: 0, skipped: 0, failed: 0, doubleHolds: 0, refusals: 0 };
  let writes: WriteCounts | null = null;
  for (const r of sorted) {
    for (const [kind, n] of Object.entries(r.anomalies)) anomalies[kind] = (anomalies[kind] ?? 0) + n;
    for (const [kind, n] of Object.entries(r.informational)) informational[kind] = (informational[kind] ?? 0) + n;
    if (r.evidence) {
      evidence.planned += r.evidence.faults.planned;
      evidence.applied += r.evidence.faults.applied;
      evidence.skipped += r.evidence.faults.skipped.length;
      evidence.failed += r.evidence.faults.failed.length;
      evidence.doubleHolds += r.evidence.protection.doubleHolds;
      evidence.refusals += r.evidence.protection.refusals;
      const overlaps = r.evidence.protection.overlaps;
      if (overlaps !== undefined) evidence.overlaps = (evidence.overlaps ?? 0) + overlaps;
    }
    if (r.writes) {
      writes ??= { accepted: 0, rejected: 0, unknown: 0 };
      writes.accepted += r.writes.accepted;
      writes.rejected += r.writes.rejected;
      writes.unknown += r.writes.unknown;
    }
  }
  const missingSeeds = [...new Set(plannedSeeds)].filter((s) => !seen.has(s)).sort((a, b) => a - b);
  const summary: Omit<CellSummary, 'outcome'> = {
    ...cell,
    planned: [...new Set([...plannedSeeds, ...seen])].sort((a, b) => a - b),
    runs: sorted,
    missingSeeds,
    valid: count((r) => r.status === 'valid'),
    invalid,
    unknown,
    rate: sorted.length === 0 ? null : invalid / sorted.length,
    anomalies,
    informational,
    evidence,
    untestedRuns: count((r) => r.outcome === 'untested'),
    untestedWhy: sorted.find((r) => r.outcome === 'untested')?.untestedWhy ?? null,
    writes,
    uselessRuns: count((r) => r.useless),
    cost: cellCost(sorted),
    durationMs: sorted.reduce((t, r) => t + (r.durationMs ?? 0), 0),
  };
  return { ...summary, outcome: outcomeOf(summary) };
}

function outcomeOf(c: Omit<CellSummary, 'outcome'>): CellOutcome {
  if (c.notApplicable !== null) return 'not-applicable';
  if (c.planned.length === 0) return 'not-run';
  if (c.invalid > 0) return 'unsafe';
  if (c.unknown > 0) return 'unknown';
  if (c.missingSeeds.length > 0) return 'incomplete';
  if (!c.runs.some((r) => r.outcome === 'safe')) return 'untested';
  return 'safe';
}

/** A cell's cost in words: `3.8 sections/s over 3 runs; 102 refused, 99 retries, 0 timeouts; section p99 1283 ms`. */
export function describeCost(c: NonNullable<CellSummary['cost']>): string {
  return `${c.sectionsPerSecond} sections/s over ${plural(c.runs, 'run')}; ${c.refusals} refused, ${c.retries} retries, ${c.timeouts} timeouts; section p99 ${Math.round(c.sectionP99Ms)} ms`;
}

/** "2 of 3 runs invalid", "3 runs valid", "1 of 3 runs missing": the cell in words. */
export function describeCell(c: CellSummary): string {
  const n = c.runs.length;
  switch (c.outcome) {
    case 'not-applicable':
      return `not applicable: ${c.notApplicable}`;
    case 'not-run':
      return 'not run here';
    case 'unsafe':
      const kinds = formatKinds(c.anomalies);
      return `${c.invalid} of ${plural(n, 'run')} invalid${kinds === '' ? '' : ` (${kinds})`}`;
    case 'unknown':
      return `${c.unknown} of ${plural(n, 'run')} unknown or failed`;
    case 'incomplete':
      return `${c.missingSeeds.length} of ${c.planned.length} runs missing (seed ${c.missingSeeds.join(', ')})`;
    case 'untested':
      return `untested: ${plural(n, 'run')} valid, none showing the danger (${c.untestedWhy ?? 'no evidence'})`;
    case 'safe':
      return `${plural(n, 'run')} valid${c.untestedRuns > 0 ? `, ${c.untestedRuns} untested` : ''} (${describeEvidence(c.evidence)})`;
  }
}

/**
 * What a safe cell's silence rules out (checkers/lock/weight.ts): its runs
 * that put the protection to the test count as tries, their double holds
 * and refusals as the dangerous moments; untested runs count for nothing.
 */
export function cellWeight(c: { runs: readonly Pick<RunSummary, 'outcome' | 'evidence'>[] }): string {
  const tested = c.runs.filter((r) => r.outcome === 'safe');
  const moments = tested.reduce((t, r) => t + (r.evidence ? r.evidence.protection.doubleHolds + r.evidence.protection.refusals : 0), 0);
  return formatWeight(tested.length, moments, 'run');
}

/** `lost-update 3, stale-write 1`, most frequent first; empty when there are none. */
export function formatKinds(anomalies: Record<string, number>): string {
  const entries = Object.entries(anomalies).sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : 1));
  return entries.map(([k, n]) => `${k} ${n}`).join(', ');
}

/** `4 of 4 faults struck; 3 double holds, 12 refusals`: what tested a cell's protection. */
export function describeEvidence(e: CellEvidence): string {
  return `${e.applied} of ${plural(e.planned, 'fault window')} struck; ${plural(e.doubleHolds, 'double hold')}, ${plural(e.refusals, 'refusal')}`;
}
