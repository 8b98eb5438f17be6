/**
 * One library × resource cell of docs/libraries.md's table, from the
 * compare cells of that row and resource under every fault column (pure).
 * The order is the compare cell's (cell-summary.ts): one unsafe column makes
 * the cell unsafe whatever the others say; then unknown; then safe when at
 * least one column put the protection to the test, with the weight of all
 * its tested runs (core/checkers/lock/weight.ts); untested otherwise, never safe.
 */
import { ruledOutRate, formatPercent } from '../../core/checkers/lock/weight.js';
import type { CompareReport, ReportCell } from './compare-report.js';
import type { LibraryFacts } from './libraries-matrix.js';
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
  /** The hunt that decided an untested cell, or weighed a safe one (huntedCell). */
  hunt?: LibraryHunt;
}

/**
 * A hunt (`fencecheck hunt`, src/cli/libraries-hunt.ts) of a cell: one the seeded runs left untested (`untested`),
 * or one they found safe, hunted until its tested tries rule out a share of failures (`weigh`).
 */
export interface LibraryHunt {
  purpose: 'untested' | 'weigh';
  library: string;
  backend: string;
  resource: string;
  /** The hunt's exit: 1 a violation, 0 none with evidence, 3 nothing dangerous tested, 2 unknown. */
  exitCode: number;
  tries: number;
  /** Tries that put the protection to the test. */
  tested: number;
  /** The hunt's own answer, line by line (its verdict, its weight or why untested). */
  lines: string[];
  durationMs: number;
  found: { tryNumber: number; replay: string } | null;
  /** The find shrunk on the real cluster. */
  shrink: { line: string; replay: string } | null;
}

/**
 * A cell after its hunt. An untested cell's hunt: unsafe when it found a violation, safe with the hunt's weight
 * when its tried plans put the protection to the test and none broke it, still untested (now saying that a
 * hunt of N tries did not reach the danger either) otherwise. A safe cell's weighing hunt: unsafe when it
 * found a violation, safe with the hunt's weight when it tested some tries, the seeded weight otherwise (a
 * hunt that tested nothing or ended unknown weighs nothing; its answer is still shown under the library).
 * A hunt is taken only by the kind of cell it was made for: an unsafe cell keeps its runs' word.
 */
export function huntedCell(c: LibraryCell, hunt: LibraryHunt | undefined): LibraryCell {
  const mine = hunt !== undefined && (hunt.purpose === 'weigh' ? c.outcome === 'safe' : c.outcome === 'untested');
  if (!mine) return c;
  if (hunt.exitCode === 1 && hunt.found !== null) return { ...c, outcome: 'unsafe', columns: [`a hunt's try ${hunt.found.tryNumber}`], hunt };
  if (hunt.exitCode === 0 && hunt.tested > 0)
    return {
      ...c,
      outcome: 'safe',
      columns: [`hunt (${hunt.tries} tries)`],
      runs: hunt.tested,
      doubleHolds: 0,
      refusals: 0,
      ruledOut: ruledOutRate(hunt.tested),
      hunt,
    };
  if (hunt.purpose === 'weigh') return c;
  return {
    ...c,
    why: `${c.why ?? 'no evidence that the danger occurred'}; a hunt of ${hunt.tries} tries with faults aimed at the lock's events did not reach it either`,
    hunt,
  };
}

/** The compare cells of a library's row: its client on its cluster. */
export function cellsOfLibrary(report: Pick<CompareReport, 'cells'>, lib: Pick<LibraryFacts, 'backend' | 'client'>): ReportCell[] {
  return report.cells.filter((c) => c.backend === lib.backend && (c.client ?? 'builtin') === lib.client);
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
    return {
      ...base,
      outcome: 'safe',
      columns,
      runs: tested.length,
      doubleHolds: moments('doubleHolds'),
      refusals: moments('refusals'),
      ruledOut: ruledOutRate(tested.length),
    };
  }
  return {
    ...base,
    ...sum,
    outcome: 'untested',
    columns: live.map((c) => c.nemesis),
    why: live.find((c) => c.untestedWhy !== null)?.untestedWhy ?? 'no evidence that the danger occurred',
  };
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
      if (c.hunt !== undefined)
        return `safe after a hunt: no violation in ${c.hunt.tries} tries, ${c.runs} tested, ruling out ≥ ${formatPercent(c.ruledOut ?? 1)} ([hunt](#${anchor}))`;
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
