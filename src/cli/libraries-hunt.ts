/**
 * The finder in docs/libraries.md: `fencecheck hunt` (a child, on the real
 * cluster) for every cell of a part that its seeded comparison left
 * untested, so that "untested" stays only where a search with faults aimed
 * at the lock's events could not reach the danger either; a weighing hunt
 * (`--until-ruled-out P`) for every cell it found safe, so that a safe cell
 * says what many tested tries rule out, not what its one or two runs did;
 * and reading back what the hunts found (their hunt.json, and the shrink of a
 * find), for the document. Each hunt lives in DIR/<part>/hunts/<n>/ (an
 * untested cell's) or DIR/<part>/weighs/<n>/ (a safe cell's) beside a
 * cell.json naming its library, resource, budget and how long it took.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareReport } from '../compare/compare-report.js';
import { LIBRARIES, type LibraryFacts } from '../compare/libraries-matrix.js';
import { cellsOfLibrary, libraryCell, type LibraryHunt } from '../compare/library-cell.js';
import { readShrunk } from './libraries-shrink.js';
import { untilRuledOutLine } from '../hunt/until-ruled-out.js';

/** A find is shrunk with few re-runs (as the part's own shrinks: libraries-shrink.ts), so a part stays one short hold of the queue. */
export const HUNT_SHRINK_ARGS = ['--shrink-runs', '2', '--shrink-min-fails', '2', '--shrink-max-candidates', '3'] as const;

/** What a cell's hunt was for, and its budget. */
export type HuntPurpose = { purpose: 'untested'; budgetRuns: number } | { purpose: 'weigh'; untilRuledOut: number; budget: string };

/** A hunted cell, and what its hunt was for (cell.json holds these and the hunt's durationMs). */
export type HuntCellFacts = { library: string; backend: string; resource: string } & HuntPurpose;

export interface HuntTarget {
  facts: HuntCellFacts;
  dir: string;
  args: string[];
}

/** The folder of a part's hunts of each purpose. */
const FOLDER = { untested: 'hunts', weigh: 'weighs' } as const;

/** The hunt commands for a part's untested library × resource cells, each with its output directory. */
export function huntTargets(partDir: string, budgetRuns: number): HuntTarget[] {
  return targets(partDir, { purpose: 'untested', budgetRuns });
}

/**
 * The weighing hunts of a part's safe library × resource cells: each hunts until its clean tested tries rule out
 * any failure showing in at least `percent` % of tries, or `budget` (a hunt's --budget: 5m, 150s) ends.
 */
export function weighTargets(partDir: string, percent: number, budget: string): HuntTarget[] {
  return targets(partDir, { purpose: 'weigh', untilRuledOut: percent, budget });
}

function targets(partDir: string, how: HuntPurpose): HuntTarget[] {
  const report = JSON.parse(readFileSync(join(partDir, 'compare.json'), 'utf8')) as CompareReport;
  const cells = LIBRARIES.flatMap((lib) =>
    report.axes.resources.map((resource) => ({ lib, resource, cell: libraryCell(cellsOfLibrary(report, lib).filter((c) => c.resource === resource)) })),
  );
  const budgetArgs =
    how.purpose === 'untested' ? ['--budget-runs', String(how.budgetRuns)] : ['--until-ruled-out', String(how.untilRuledOut), '--budget', how.budget];
  return cells
    .filter((c) => c.cell.outcome === (how.purpose === 'untested' ? 'untested' : 'safe'))
    .map(({ lib, resource }, i) => {
      const dir = join(partDir, FOLDER[how.purpose], String(i + 1));
      const args = ['hunt', '--backend', lib.backend, ...clientArgs(lib), '--resource', resource, ...budgetArgs, ...HUNT_SHRINK_ARGS, '--results', dir];
      return { facts: { library: lib.client, backend: lib.backend, resource, ...how }, dir, args };
    });
}

/** The built-in client needs no `--client`; every other library is named as `--lock-clients` names it. */
function clientArgs(lib: LibraryFacts): string[] {
  return lib.client === 'builtin' ? [] : ['--client', lib.client];
}

export function recordHunt(dir: string, facts: HuntCellFacts, durationMs: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cell.json'), `${JSON.stringify({ ...facts, durationMs })}\n`);
}

/** What the part's hunts found (untested cells' and safe cells' weighings): each cell's newest hunt, its answer and (a find) its shrink. */
export function readHunts(partDir: string): LibraryHunt[] {
  return [...readFolder(join(partDir, FOLDER.untested)), ...readFolder(join(partDir, FOLDER.weigh))];
}

function readFolder(root: string): LibraryHunt[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((n) => {
    const dir = join(root, n);
    const cellFile = join(dir, 'cell.json');
    const huntDir = newest(join(dir, 'hunt'));
    if (!existsSync(cellFile) || huntDir === undefined || !existsSync(join(huntDir, 'hunt.json'))) return [];
    // purpose is absent from a cell.json written before weighing hunts existed.
    const facts = JSON.parse(readFileSync(cellFile, 'utf8')) as {
      library: string;
      backend: string;
      resource: string;
      purpose?: HuntPurpose['purpose'];
      untilRuledOut?: number;
      durationMs: number;
    };
    const hunt = JSON.parse(readFileSync(join(huntDir, 'hunt.json'), 'utf8')) as HuntJson;
    const shrinkFile = join(huntDir, 'shrink', 'shrink.json');
    // The hunt's own find (a hunt.json older than `find` names none: its first violation then).
    const found = hunt.find != null ? hunt.tries.findIndex((t) => t.index === hunt.find) : hunt.tries.findIndex((t) => t.outcome === 'unsafe');
    return [
      {
        purpose: facts.purpose ?? 'untested',
        library: facts.library,
        backend: facts.backend,
        resource: facts.resource,
        exitCode: hunt.exitCode,
        tries: hunt.tries.length,
        tested: hunt.tries.filter((t) => t.outcome === 'safe').length,
        // A weighing hunt's answer says how far it got toward its share, as the hunt printed it (hunt.json keeps the verdict's lines only).
        lines:
          facts.untilRuledOut !== undefined && hunt.exitCode === 0 ? [...hunt.lines, untilRuledOutLine(hunt.tries, facts.untilRuledOut / 100)] : hunt.lines,
        durationMs: facts.durationMs,
        // As the hunt's log numbers it (a plan's number: with several lanes tries end out of order).
        found: found < 0 ? null : { tryNumber: hunt.tries[found]!.index + 1, replay: hunt.tries[found]!.replay ?? '' },
        shrink: existsSync(shrinkFile) ? readShrunk(shrinkFile) : null,
      },
    ];
  });
}

interface HuntJson {
  exitCode: number;
  lines: string[];
  /** The plan index of the try the hunt's answer names (absent before it was recorded). */
  find?: number | null;
  tries: { index: number; outcome: string; replay: string | null }[];
}

/** The newest timestamped directory under `dir` (a hunt writes <results>/hunt/<timestamp>/). */
function newest(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const stamps = readdirSync(dir)
    .filter((s) => s !== 'latest')
    .sort();
  return stamps.length === 0 ? undefined : join(dir, stamps.at(-1)!);
}
