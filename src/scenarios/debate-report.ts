/**
 * The debate as one document (debate.json): every scenario with its claim and
 * both sides' predictions, one row per variant with the measured verdict over
 * the seeds and links to each run's report, relative to the debate
 * directory. It is the one input of the HTML and Markdown renderers.
 *
 * Exit code: 1 when a measured outcome differs from what the debate agrees
 * on; otherwise 2 when a run failed or reached no verdict; otherwise 3 when a
 * measured row is undecided (no seed showed the danger or the protection:
 * untested, which is not agreement); else 0.
 * Rows without an agreed outcome never change it: they are the debate.
 */
import { relative, sep } from 'node:path';
import { EXIT } from '../../core/errors.js';
import type { RunStatus } from '../compare/run-summary.js';
import { plural } from '../compare/format-units.js';
import type { Scenario } from './scenario.js';
import type { Match, VariantSummary } from './summarize-variant.js';

export const DEBATE_FORMAT = 'fencecheck-debate/1';

export interface DebateRunLink {
  seed: number;
  status: RunStatus;
  /** report.html when the run has one, else the run directory; relative to the debate directory. */
  link: string | null;
  runDir: string | null;
  replay: string;
  sharedFrom: string | null;
  error: string | null;
}

export interface DebateRow extends Omit<VariantSummary, 'cell' | 'runs'> {
  runs: DebateRunLink[];
}

export interface DebateScenario extends Omit<Scenario, 'variants' | 'notReproduced'> {
  notReproduced: string | null;
  rows: DebateRow[];
}

export interface DebateReport {
  format: typeof DEBATE_FORMAT;
  generatedAt: string;
  seeds: number[];
  /** Wall-clock time of the whole `scenario run`, when known. */
  durationMs: number | null;
  headline: string;
  scenarios: DebateScenario[];
  totals: Record<Match, number> & { rows: number; runs: number; failedRuns: number };
  exitCode: number;
}

export interface DebateEntry {
  scenario: Scenario;
  variants: VariantSummary[];
}

export function buildDebateReport(
  entries: readonly DebateEntry[],
  opts: { outDir: string; seeds: number[]; generatedAt: string; durationMs: number | null },
): DebateReport {
  const rel = (p: string | null): string | null => (p === null ? null : relative(opts.outDir, p).split(sep).join('/'));
  const scenarios = entries.map(({ scenario, variants }): DebateScenario => {
    const { variants: _v, notReproduced, ...text } = scenario;
    return {
      ...text,
      notReproduced: notReproduced ?? null,
      rows: variants.map(({ cell: _c, runs, ...row }) => ({
        ...row,
        runs: runs.map((r) => ({
          seed: r.summary.seed,
          status: r.summary.status,
          link: rel(r.summary.hasReport && r.summary.dir !== null ? `${r.summary.dir}${sep}report.html` : r.summary.dir),
          runDir: rel(r.summary.dir),
          replay: r.summary.replay ?? '',
          sharedFrom: r.sharedFrom,
          error: r.summary.error,
        })),
      })),
    };
  });
  const rows = scenarios.flatMap((s) => s.rows);
  const count = (m: Match): number => rows.filter((r) => r.match === m).length;
  const runs = rows.flatMap((r) => r.runs.filter((x) => x.sharedFrom === null));
  const failedRuns = runs.filter((r) => r.status === 'error' || r.status === 'unknown').length;
  const totals = {
    'as-expected': count('as-expected'),
    differs: count('differs'),
    undecided: count('undecided'),
    'no-expectation': count('no-expectation'),
    rows: rows.length,
    runs: runs.length,
    failedRuns,
  };
  const undecidedMeasured = rows.filter((r) => r.match === 'undecided' && r.status === 'measured').length;
  const exitCode = totals.differs > 0 ? EXIT.invalid : failedRuns > 0 ? EXIT.unknown : undecidedMeasured > 0 ? EXIT.untested : EXIT.valid;
  const notMeasured = rows.filter((r) => r.status !== 'measured').length;
  const headline = [
    `${plural(scenarios.length, 'scenario')}, ${plural(rows.length, 'row')}`,
    `${totals['as-expected']} as the debate agrees`,
    `${totals.differs} differ`,
    `${undecidedMeasured} undecided`,
    `${rows.filter((r) => r.match === 'no-expectation' && r.status === 'measured').length} disputed`,
    `${notMeasured} not run`,
  ].join(' · ');
  return { format: DEBATE_FORMAT, generatedAt: opts.generatedAt, seeds: opts.seeds, durationMs: opts.durationMs, headline, scenarios, totals, exitCode };
}
