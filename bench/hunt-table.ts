/**
 * bench:hunt's rows and table (pure): one row per hunt read from its
 * hunt.json, and per target the runs-to-detection and time-to-detection
 * over its seeds (median and range), the fault arms of the finding tries,
 * or for a protected target the tries, the tested tries and the bound.
 */
import { formatDuration } from '../src/compare/format-units.js';
import { formatPercent, ruledOutRate } from '../core/checkers/lock/weight.js';
import type { BenchTarget, FindFacts } from './hunt-targets.js';
import type { ShrinkFacts } from './hunt-shrink.js';

export interface HuntRow {
  target: string;
  seed: number;
  budget: string;
  exitCode: number;
  error?: string;
  tries: number;
  /** Tries that put the protection to the test (outcome safe). */
  tested?: number;
  found: {
    tryNumber: number;
    afterMs: number;
    arms: string;
    runDir: string | null;
    miss?: FindFacts['miss'];
    reproduced?: { fails: number; of: number };
    /**
     * The run of the try the hunt's answer names (hunt.json's `find`: the most reproducible violation, not always
     * the first), which the hunt shrinks and prints `fencecheck shrink` for.
     */
    reportedRunDir?: string | null;
  } | null;
  wallMs: number;
  huntJson: string | null;
  date: string;
  /** The build the hunt ran (a commit), when the bench was told. */
  build?: string;
  /** What the hunt searched (its hunt.json): a row of an earlier definition of the target is left out of the table. */
  resource?: string;
  faults?: string[];
  /** The hunt's --redis-persistence, when it named one. */
  redisPersistence?: string;
  /** The hunt's --want, when it named one. */
  want?: string;
  /** Tries that broke the data without the wanted sign (a hunt with --want). */
  otherViolations?: number;
  /** The find's shrink (bench:hunt --shrink or --shrink-found). */
  shrink?: ShrinkFacts;
}

interface HuntJsonTry {
  /** The try's plan index (tries are listed in the order they ended). */
  index?: number;
  outcome: string;
  endedAtMs: number;
  runDir: string | null;
  windows: { fault: string; trigger?: { on: string } }[];
  nearMiss?: FindFacts['miss'];
  /** The find's re-runs (src/hunt/confirm-find.ts), in hunts that confirm their finds. */
  reproduced?: { fails: number; of: number };
}

/** A row out of a hunt's hunt.json. */
export function huntRow(target: string, seed: number, budget: string, exitCode: number, doc: unknown, huntJson: string, wallMs: number): HuntRow {
  const tries = ((doc as { tries?: HuntJsonTry[] }).tries ?? []) as HuntJsonTry[];
  const i = tries.findIndex((t) => t.outcome === 'unsafe');
  const findIndex = (doc as { find?: unknown }).find;
  const reported = typeof findIndex === 'number' ? tries.find((t) => t.index === findIndex) : undefined;
  const hit = i >= 0 ? tries[i]! : undefined;
  // The find's rate: the most reproducible violation's re-runs (the hunt reports that one), when it measured any.
  const rates = tries.filter((t) => t.outcome === 'unsafe' && t.reproduced !== undefined && t.reproduced.of > 0).map((t) => t.reproduced!);
  const best = rates.reduce<{ fails: number; of: number } | undefined>((b, r) => (b === undefined || r.fails / r.of > b.fails / b.of ? r : b), undefined);
  const found = hit
    ? {
        tryNumber: i + 1,
        afterMs: hit.endedAtMs,
        arms: hit.windows.map((w) => `${w.fault}@${w.trigger?.on ?? 'time'}`).join(' + '),
        runDir: hit.runDir,
        miss: hit.nearMiss ?? null,
        ...(best ? { reproduced: { fails: best.fails, of: best.of } } : {}),
        reportedRunDir: reported?.runDir ?? hit.runDir,
      }
    : null;
  const d = doc as { target?: { resource?: string; redisPersistence?: string }; faults?: string[]; want?: string };
  return {
    target,
    seed,
    budget,
    exitCode,
    tries: tries.length,
    tested: tries.filter((t) => t.outcome === 'safe').length,
    found,
    wallMs,
    huntJson,
    date: new Date().toISOString(),
    ...(d.target?.resource ? { resource: d.target.resource } : {}),
    ...(d.faults ? { faults: d.faults } : {}),
    ...(d.target?.redisPersistence ? { redisPersistence: d.target.redisPersistence } : {}),
    ...(d.want ? { want: d.want, otherViolations: tries.filter((t) => t.outcome === 'other-violation').length } : {}),
  };
}

/** The median of a non-empty list (bench:hunt's tables: the hunts' and the shrinks'). */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** `median (min–max)`, a lone value as itself, — for none. */
export const spread = (xs: readonly number[], fmt: (n: number) => string): string =>
  xs.length === 0 ? '—' : xs.length === 1 ? fmt(xs[0]!) : `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;

/** The markdown table over every row, one line per target measured (the last row of a target × seed wins). */
export function huntTable(rows: readonly HuntRow[], targets: readonly BenchTarget[]): string {
  const last = new Map<string, HuntRow>();
  for (const r of rows) {
    const t = targets.find((x) => x.id === r.target);
    if (t !== undefined && sameDefinition(t, r)) last.set(`${r.target}#${r.seed}`, r);
  }
  const lines = [
    "| target | expected | seeds | found | the debate's failure | runs-to-detection, median (range) | time-to-detection, median (range) | find reproduced (4 of 5 re-runs) | what found it | budget |",
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const t of targets) {
    const mine = [...last.values()].filter((r) => r.target === t.id).sort((a, b) => a.seed - b.seed);
    if (mine.length === 0) continue;
    const found = mine.filter((r) => r.found !== null);
    const seeds = `${mine[0]!.seed}–${mine.at(-1)!.seed}` + (mine.length < mine.at(-1)!.seed - mine[0]!.seed + 1 ? ` (${mine.length})` : '');
    const arms = [...new Set(found.map((r) => r.found!.arms))].join('; ');
    const budgets = [...new Set(mine.map((r) => r.budget))].join(', ');
    const errors = mine.filter((r) => r.error !== undefined).length;
    const foundCell = `${found.length}/${mine.length}${errors > 0 ? ` (${errors} failed to run)` : ''}`;
    if (t.expect === 'none') {
      const tries = mine.reduce((n, r) => n + r.tries, 0);
      const tested = mine.reduce((n, r) => n + (r.tested ?? 0), 0);
      const bound = ruledOutRate(tested);
      // A violation where the target claims none: a real one (the find's run shows it) refutes the claim; a spurious one is a checker's defect. Either way it is shown, never hidden.
      const note =
        found.length > 0
          ? `VIOLATION where none was expected: ${arms}`
          : `${tries} tries, ${tested} tested: ≥ ${bound === null ? '—' : formatPercent(bound)} ruled out (95 %)`;
      lines.push(`| ${t.id} | none | ${seeds} | ${foundCell} | — | — | — | — | ${note} | ${budgets} |`);
      continue;
    }
    const runs = spread(
      found.map((r) => r.found!.tryNumber),
      String,
    );
    const time = spread(
      found.map((r) => r.found!.afterMs),
      formatDuration,
    );
    // A hunt asked for a sign (--want) says what else broke the data on its way.
    const others = mine.reduce((n, r) => n + (r.otherViolations ?? 0), 0);
    const othersNote = t.want ? `${arms ? '; ' : ''}${others} tries over ${mine.length} seeds broke the data without a ${t.want}` : '';
    lines.push(
      `| ${t.id} | violation | ${seeds} | ${foundCell} | ${failureCell(t, found)} | ${runs} | ${time} | ${reproducedCell(found)} | ${arms || (othersNote ? '' : '—')}${othersNote} | ${budgets} |`,
    );
  }
  return lines.join('\n');
}

/** How many finds were reproducible (4 of 5 re-runs failed as they did), and the rates: `2 of 3 (4/4, 4/5, 1/3)`; — before hunts confirmed their finds. */
function reproducedCell(found: readonly HuntRow[]): string {
  const rates = found.flatMap((r) => (r.found?.reproduced ? [r.found.reproduced] : []));
  if (rates.length === 0) return '—';
  const good = rates.filter((t) => t.fails >= 4).length;
  return `${good} of ${rates.length} (${rates.map((t) => `${t.fails}/${t.of}`).join(', ')})`;
}

/** The row hunted what the target says now (rows that do not say are taken as they are). */
function sameDefinition(t: BenchTarget, r: HuntRow): boolean {
  // A row read from its hunt.json knows its resource, its persistence (none unless named) and the sign it asked for.
  if (r.resource !== undefined) {
    if (r.resource !== t.resource || (r.redisPersistence ?? 'none') !== (t.redisPersistence ?? 'none')) return false;
    // A hunt asked for a sign finds another thing than one that was not.
    if ((r.want ?? '') !== (t.want ?? '')) return false;
  }
  return t.faults === undefined || r.faults === undefined || [...t.faults].sort().join(',') === [...r.faults].sort().join(',');
}

/** How many finds show the target's own failure (its sign), or that every find is it. */
function failureCell(t: BenchTarget, found: readonly HuntRow[]): string {
  if (found.length === 0) return '—';
  if (!t.failure) return 'every find';
  const shown = found.filter((r) => t.failure!.shown({ arms: r.found!.arms.split(' + '), miss: r.found!.miss ?? null })).length;
  return `${shown} of ${found.length} finds (${t.failure.sign})`;
}
