/**
 * The comparison as one document: the axes, every cell aggregated over its
 * seeds, the expectations and their outcome, the verdict and the exit code.
 * It is what compare.json holds, and the one input of the HTML, JUnit and
 * Markdown renderers, which therefore agree by construction.
 *
 * Exit codes: with expectations, 0 when all are met and 1 otherwise; without,
 * the verdicts decide as for `fencecheck run` (1 any run invalid, 2 any run
 * unknown, failed or missing, else 0); in both, 3 instead of 0 when an
 * untested cell is passed over (no expectation names it, or there are none).
 */
import { relative, sep } from 'node:path';
import { EXIT } from '../../core/errors.js';
import type { Validity } from '../../core/run-files/results-json.js';
import { summarizeCell, type CellSummary } from './cell-summary.js';
import { matrixCells, type LockRow } from './compare-spec.js';
import { evaluateExpectations, type CellExpectation, type ExpectationOutcome, type ExpectationResult } from './evaluate-expectations.js';
import type { Expectation } from './expectations.js';
import { plural } from './format-units.js';
import type { RunSummary } from './run-summary.js';
import type { LockBackend, ResourceMode } from '../../core/vocabulary.js';

export const REPORT_FORMAT = 'fencecheck-compare-report/1';

/** What the matrix is made of, whichever way it was gathered (one compare run, or a merge). */
export interface MatrixInput {
  /** The rows: backends (the built-in client's) or lock rows (--lock-clients). */
  backends: (LockBackend | LockRow)[];
  resources: ResourceMode[];
  nemeses: string[];
  /** Seeds planned in scope, by cell id. */
  planned: Map<string, number[]>;
  runs: RunSummary[];
  /** The shards gathered, as `i/N`; empty for a comparison not sharded. */
  shards: string[];
  description: string;
  warnings: string[];
}

/** A run as the report links it: paths relative to the report's directory. */
export interface ReportRun extends Omit<RunSummary, 'dir' | 'log' | 'hasReport'> {
  runDir: string | null;
  /** report.html when the run has one, else the run directory. */
  link: string | null;
  log: string | null;
}

export interface ReportCell extends Omit<CellSummary, 'runs'> {
  runs: ReportRun[];
  expectation: CellExpectation | null;
}

export interface CompareReport {
  format: typeof REPORT_FORMAT;
  generatedAt: string;
  description: string;
  axes: { backends: string[]; resources: string[]; nemeses: string[] };
  seeds: number[];
  shards: string[];
  cells: ReportCell[];
  expectations: ExpectationResult[] | null;
  totals: {
    cells: number;
    notApplicable: number;
    planned: number;
    finished: number;
    valid: number;
    invalid: number;
    unknown: number;
    missing: number;
    untestedCells: number;
  };
  /** Merged over the runs in scope: false > unknown (also missing runs) > true. */
  verdict: Validity;
  /** One line: the state of things. */
  headline: string;
  exitCode: number;
  warnings: string[];
}

export function buildCompareReport(
  input: MatrixInput,
  expectations: readonly Expectation[] | null,
  at: { outDir: string; generatedAt: string },
): CompareReport {
  const byCell = new Map<string, RunSummary[]>();
  for (const r of input.runs) byCell.set(r.cellId, [...(byCell.get(r.cellId) ?? []), r]);
  const cells = matrixCells(input.backends, input.resources, input.nemeses).map((c) => summarizeCell(c, input.planned.get(c.id) ?? [], byCell.get(c.id) ?? []));
  const judged = expectations === null ? null : evaluateExpectations(expectations, cells);
  const link = (p: string | null): string | null => (p === null ? null : relativeLink(at.outDir, p));
  const reportCells: ReportCell[] = cells.map((c) => ({
    ...c,
    runs: c.runs.map(({ dir, log, hasReport, ...r }) => ({
      ...r,
      runDir: link(dir),
      link: dir === null ? null : link(hasReport ? `${dir}/report.html` : dir),
      log: link(log),
    })),
    expectation: judged?.byCell.get(c.id) ?? null,
  }));
  const inScope = cells.filter((c) => c.outcome !== 'not-applicable');
  const sum = (f: (c: CellSummary) => number): number => inScope.reduce((t, c) => t + f(c), 0);
  const totals = {
    cells: cells.length,
    notApplicable: cells.length - inScope.length,
    planned: sum((c) => c.planned.length),
    finished: sum((c) => c.runs.length),
    valid: sum((c) => c.valid),
    invalid: sum((c) => c.invalid),
    unknown: sum((c) => c.unknown),
    missing: sum((c) => c.missingSeeds.length),
    untestedCells: inScope.filter((c) => c.outcome === 'untested').length,
  };
  const verdict: Validity = totals.invalid > 0 ? false : totals.unknown > 0 || totals.missing > 0 ? 'unknown' : true;
  const warnings = [...input.warnings];
  if (totals.planned === 0) warnings.push('no run is planned in this scope: nothing was tested');
  if (judged !== null && judged.uncovered.length > 0) {
    const list = judged.uncovered.length > 5 ? `${judged.uncovered.slice(0, 5).join(', ')}, …` : judged.uncovered.join(', ');
    warnings.push(
      `${plural(judged.uncovered.length, 'cell')} ${judged.uncovered.length === 1 ? 'has' : 'have'} no expectation (${list}): ${judged.uncovered.length === 1 ? 'its' : 'their'} outcome decides nothing, except that an untested one exits 3`,
    );
  }
  const exitCode = compareExitCode(judged, verdict, cells);
  return {
    format: REPORT_FORMAT,
    generatedAt: at.generatedAt,
    description: input.description,
    axes: { backends: input.backends.map((b) => (typeof b === 'string' ? b : b.label)), resources: input.resources, nemeses: input.nemeses },
    seeds: [...new Set(cells.flatMap((c) => c.planned))].sort((a, b) => a - b),
    shards: input.shards,
    cells: reportCells,
    expectations: judged?.results ?? null,
    totals,
    verdict,
    headline: headline(totals, judged?.results ?? null),
    exitCode,
    warnings,
  };
}

/**
 * By the expectations when given (0 met, 1 unmet), else by the verdict (1 invalid, 2 unknown or missing);
 * in both, 3 when what would pass includes an untested cell no expectation speaks for: untested is not safe.
 */
function compareExitCode(judged: ExpectationOutcome | null, verdict: Validity, cells: readonly CellSummary[]): number {
  const untested = (ids: ReadonlySet<string> | null): boolean => cells.some((c) => c.outcome === 'untested' && (ids === null || ids.has(c.id)));
  if (judged !== null) return !judged.met ? EXIT.invalid : untested(new Set(judged.uncovered)) ? EXIT.untested : EXIT.valid;
  if (verdict === false) return EXIT.invalid;
  if (verdict === 'unknown') return EXIT.unknown;
  return untested(null) ? EXIT.untested : EXIT.valid;
}

function headline(t: CompareReport['totals'], results: ExpectationResult[] | null): string {
  if (t.planned === 0 && t.finished === 0) return 'no run planned here: nothing was tested';
  const trouble = [t.unknown > 0 ? `${t.unknown} unknown` : '', t.missing > 0 ? `${t.missing} missing` : ''].filter((x) => x !== '').join(', ');
  if (results !== null) {
    const unmet = results.filter((r) => r.unmet.length > 0 || r.matchedNoCell).length;
    const runs = `${t.finished} of ${plural(t.planned, 'run')} finished, ${t.invalid} invalid${trouble === '' ? '' : `, ${trouble}`}`;
    return unmet === 0 ? `all ${plural(results.length, 'expectation')} met (${runs})` : `${unmet} of ${plural(results.length, 'expectation')} unmet (${runs})`;
  }
  if (t.invalid > 0) return `${t.invalid} of ${plural(t.finished, 'run')} invalid${trouble === '' ? '' : `, ${trouble}`}`;
  if (trouble !== '') return `no run invalid, but ${trouble} of ${plural(t.planned, 'run')}`;
  const valid = t.finished === 1 ? 'the run is valid' : `all ${t.finished} runs valid`;
  return t.untestedCells === 0 ? valid : `${valid}, but ${plural(t.untestedCells, 'cell')} untested (no fault struck, or the lock never failed)`;
}

/** A path as a link from `fromDir`, with forward slashes. */
export function relativeLink(fromDir: string, path: string): string {
  return relative(fromDir, path).split(sep).join('/') || '.';
}
