/**
 * Expectations against the cells of a matrix. Each cell gets the last entry
 * that matches it; cells that cannot run (not applicable) or did not run here
 * (another shard) are left out, so `{ "resource": "fence", "expect": "safe" }`
 * does not trip over Redlock, which has no fencing token. An entry that names
 * no cell of the matrix at all is unmet: it is most likely a typo, and a typo
 * must not pass CI silently. A file none of whose entries names a cell is a
 * mistake in the arguments (254, assertExpectationsMatch), and the cells no
 * entry names are said (uncovered), since their outcome decides nothing.
 */
import { UsageError } from '../../core/errors.js';
import { describeCell, type CellSummary } from './cell-summary.js';
import { matchesCell, type CellAxes, type Expect, type Expectation } from './expectations.js';

export interface CellExpectation {
  /** The deciding entry's index. */
  expectation: number;
  expect: Expect;
  met: boolean;
  /** What the cell showed, in words. */
  reason: string;
}

export interface ExpectationResult {
  index: number;
  text: string;
  note: string | null;
  /** Cells of the matrix it names (before later entries override it). */
  matched: number;
  /** Cells it decided. */
  decided: number;
  unmet: { cellId: string; reason: string }[];
  /** It names no cell of the matrix. */
  matchedNoCell: boolean;
}

export interface ExpectationOutcome {
  byCell: Map<string, CellExpectation>;
  results: ExpectationResult[];
  met: boolean;
  /** Cells that ran (or were to run) here and that no entry names: their outcome decides nothing. */
  uncovered: string[];
}

/** Refuses (254) expectations none of which names a cell of `cells` that can run: such a file checks nothing. */
export function assertExpectationsMatch(
  expectations: readonly Expectation[],
  cells: readonly (CellAxes & { id: string; notApplicable: string | null })[],
  file: string,
): void {
  const runnable = cells.filter((c) => c.notApplicable === null);
  if (expectations.some((e) => runnable.some((c) => matchesCell(e, c)))) return;
  const sample = runnable
    .slice(0, 3)
    .map((c) => c.id)
    .join(', ');
  throw new UsageError(
    `Expected \`--expect\` ${file} to name at least one cell of the matrix, got ${expectations.length} ${expectations.length === 1 ? 'entry' : 'entries'} that match${expectations.length === 1 ? 'es' : ''} none`,
    `Patterns are matched against backend (or client@backend), resource and nemesis, e.g. ${sample === '' ? 'redis/fence/kill' : sample}; see docs/ci.md.`,
  );
}

export function evaluateExpectations(expectations: readonly Expectation[], cells: readonly CellSummary[]): ExpectationOutcome {
  const byCell = new Map<string, CellExpectation>();
  const uncovered: string[] = [];
  const results: ExpectationResult[] = expectations.map((e) => ({
    index: e.index,
    text: e.text,
    note: e.note,
    matched: 0,
    decided: 0,
    unmet: [],
    matchedNoCell: false,
  }));
  for (const cell of cells) {
    let deciding: Expectation | undefined;
    expectations.forEach((e, i) => {
      if (!matchesCell(e, cell)) return;
      results[i]!.matched++;
      deciding = e;
    });
    if (cell.outcome === 'not-applicable' || cell.outcome === 'not-run') continue;
    if (deciding === undefined) {
      uncovered.push(cell.id);
      continue;
    }
    const verdict = judge(deciding, cell);
    byCell.set(cell.id, { expectation: deciding.index, expect: deciding.expect, ...verdict });
    const result = results[expectations.indexOf(deciding)]!;
    result.decided++;
    if (!verdict.met) result.unmet.push({ cellId: cell.id, reason: verdict.reason });
  }
  for (const r of results) r.matchedNoCell = r.matched === 0;
  return { byCell, results, met: results.every((r) => r.unmet.length === 0 && !r.matchedNoCell), uncovered };
}

function judge(e: Expectation, cell: CellSummary): { met: boolean; reason: string } {
  const shown = describeCell(cell);
  switch (e.expect) {
    case 'any':
      return { met: true, reason: shown };
    case 'safe': {
      if (cell.outcome !== 'safe') return { met: false, reason: shown };
      if (e.useful && cell.uselessRuns > 0)
        return { met: false, reason: `${shown}, but the fence rejected every write in ${cell.uselessRuns} of ${cell.runs.length} runs (safe but useless)` };
      return { met: true, reason: shown };
    }
    case 'unsafe': {
      if (cell.invalid === 0) return { met: false, reason: cell.outcome === 'safe' ? `${shown}: no anomaly found` : shown };
      const missing = e.kinds.filter((k) => !(cell.anomalies[k] ?? 0));
      if (missing.length > 0) return { met: false, reason: `${shown}, but no ${missing.join(', ')}` };
      return { met: true, reason: shown };
    }
  }
}
