/**
 * One library × resource cell of docs/libraries.md's table, from the
 * compare cells of that row and resource under every fault column (pure).
 * The order is the compare cell's (cell-summary.ts): one unsafe column makes
 * the cell unsafe whatever the others say; then unknown; then safe when at
 * least one column put the protection to the test, with the weight of all
 * its tested runs (core/checkers/lock/weight.ts); untested otherwise, never safe.
 */
import { ruledOutRate, formatPercent } from '../../core/checkers/lock/weight.js';
import type { ReportCell } from './compare-report.js';
import { md } from './render-summary-md.js';

export type LibraryOutcome = 'unsafe' | 'unknown' | 'safe' | 'untested' | 'n/a' | 'not-run';

export interface LibraryCell {
  outcome: LibraryOutcome;
  /** The fault columns that decided it (unsafe: the unsafe ones; safe: the tested ones). */
  columns: string[];
  /** Runs that put the protection to the test (safe), or all runs (otherwise). */
  runs: number;
  doubleHolds: number;
  refusals: number;
  /** The smallest per-run failure rate the tested runs rule out at 95 %, for a safe cell. */
  ruledOut: number | null;
  /** Why untested, unknown or n/a, from the cells. */
  why: string | null;
}

export function libraryCell(cells: readonly ReportCell[]): LibraryCell {
  const base = { columns: [] as string[], runs: 0, doubleHolds: 0, refusals: 0, ruledOut: null, why: null };
  const live = cells.filter((c) => c.outcome !== 'not-run' && c.outcome !== 'not-applicable');
  if (live.length === 0) {
    const na = cells.find((c) => c.outcome === 'not-applicable');
    return na === undefined ? { ...base, outcome: 'not-run' } : { ...base, outcome: 'n/a', why: na.notApplicable };
  }
  const allRuns = live.flatMap((c) => c.runs);
  const sum = { runs: allRuns.length, doubleHolds: sumOf(live, 'doubleHolds'), refusals: sumOf(live, 'refusals') };
  const unsafe = live.filter((c) => c.outcome === 'unsafe');
  if (unsafe.length > 0) return { ...base, ...sum, outcome: 'unsafe', columns: unsafe.map((c) => c.nemesis) };
  const unknown = live.find((c) => c.outcome === 'unknown' || c.outcome === 'incomplete');
  if (unknown !== undefined) {
    const run = unknown.runs.find((r) => r.status === 'error' || r.status === 'unknown');
    return { ...base, ...sum, outcome: 'unknown', columns: [unknown.nemesis], why: run?.error ?? run?.failing.join('; ') ?? `${unknown.outcome}` };
  }
  const tested = allRuns.filter((r) => r.outcome === 'safe');
  if (tested.length > 0) {
    const moments = (k: 'doubleHolds' | 'refusals'): number => tested.reduce((t, r) => t + (r.evidence?.protection[k] ?? 0), 0);
    const columns = live.filter((c) => c.outcome === 'safe').map((c) => c.nemesis);
    return { ...base, outcome: 'safe', columns, runs: tested.length, doubleHolds: moments('doubleHolds'), refusals: moments('refusals'), ruledOut: ruledOutRate(tested.length) };
  }
  return { ...base, ...sum, outcome: 'untested', columns: live.map((c) => c.nemesis), why: live.find((c) => c.untestedWhy !== null)?.untestedWhy ?? 'no evidence that the danger occurred' };
}

function sumOf(cells: readonly ReportCell[], k: 'doubleHolds' | 'refusals'): number {
  return cells.reduce((t, c) => t + c.evidence[k], 0);
}

/** The cell as the table shows it (markdown; `anchor` links an unsafe cell to its reproduction). */
export function libraryCellText(c: LibraryCell, anchor: string): string {
  switch (c.outcome) {
    case 'unsafe':
      return `**unsafe** under ${c.columns.join(', ')} ([reproduce](#${anchor}))`;
    case 'safe':
      return `safe ⚡${c.doubleHolds} 🛡${c.refusals}: ${c.runs === 1 ? '1 tested run rules' : `${c.runs} tested runs rule`} out ≥ ${formatPercent(c.ruledOut ?? 1)}`;
    case 'untested':
      return `untested: ${md(c.why ?? '')} ([why](#${anchor}))`;
    case 'unknown':
      return `unknown (${c.columns.join(', ')}: ${md(c.why ?? '')})`;
    case 'n/a':
      return 'n/a';
    case 'not-run':
      return '·';
  }
}
