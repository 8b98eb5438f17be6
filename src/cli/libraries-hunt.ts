/**
 * The finder in docs/libraries.md: `fencecheck hunt` (a child, on the real
 * cluster) for every cell of a part that its seeded comparison left
 * untested, so that "untested" stays only where a search with faults aimed
 * at the lock's events could not reach the danger either; and reading back
 * what the hunts found (their hunt.json, and the shrink of a find), for the
 * document. Each hunt lives in DIR/<part>/hunts/<n>/ beside a cell.json
 * naming its library, resource and how long it took.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareReport } from '../compare/compare-report.js';
import { LIBRARIES, type LibraryFacts } from '../compare/libraries-matrix.js';
import { cellsOfLibrary, libraryCell, type LibraryHunt } from '../compare/library-cell.js';
import { readShrunk } from './libraries-shrink.js';

/** A find is shrunk with few re-runs (as the part's own shrinks: libraries-shrink.ts), so a part stays one short hold of the queue. */
export const HUNT_SHRINK_ARGS = ['--shrink-runs', '2', '--shrink-min-fails', '2', '--shrink-max-candidates', '3'] as const;

interface HuntCellFacts {
  library: string;
  backend: string;
  resource: string;
  budgetRuns: number;
  durationMs: number;
}

/** The hunt commands for a part's untested library × resource cells, each with its output directory. */
export function huntTargets(partDir: string, budgetRuns: number): { facts: Omit<HuntCellFacts, 'durationMs'>; dir: string; args: string[] }[] {
  const report = JSON.parse(readFileSync(join(partDir, 'compare.json'), 'utf8')) as CompareReport;
  const cells = LIBRARIES.flatMap((lib) =>
    report.axes.resources.map((resource) => ({ lib, resource, cell: libraryCell(cellsOfLibrary(report, lib).filter((c) => c.resource === resource)) })),
  );
  return cells
    .filter((c) => c.cell.outcome === 'untested')
    .map(({ lib, resource }, i) => {
      const dir = join(partDir, 'hunts', String(i + 1));
      const args = [
        'hunt',
        '--backend',
        lib.backend,
        ...clientArgs(lib),
        '--resource',
        resource,
        '--budget-runs',
        String(budgetRuns),
        ...HUNT_SHRINK_ARGS,
        '--results',
        dir,
      ];
      return { facts: { library: lib.client, backend: lib.backend, resource, budgetRuns }, dir, args };
    });
}

/** The built-in client needs no `--client`; every other library is named as `--lock-clients` names it. */
function clientArgs(lib: LibraryFacts): string[] {
  return lib.client === 'builtin' ? [] : ['--client', lib.client];
}

export function recordHunt(dir: string, facts: Omit<HuntCellFacts, 'durationMs'>, durationMs: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cell.json'), `${JSON.stringify({ ...facts, durationMs })}\n`);
}

/** What the part's hunts found: each cell's newest hunt, its answer and (a find) its shrink. */
export function readHunts(partDir: string): LibraryHunt[] {
  const root = join(partDir, 'hunts');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((n) => {
    const dir = join(root, n);
    const cellFile = join(dir, 'cell.json');
    const huntDir = newest(join(dir, 'hunt'));
    if (!existsSync(cellFile) || huntDir === undefined || !existsSync(join(huntDir, 'hunt.json'))) return [];
    const facts = JSON.parse(readFileSync(cellFile, 'utf8')) as HuntCellFacts;
    const hunt = JSON.parse(readFileSync(join(huntDir, 'hunt.json'), 'utf8')) as HuntJson;
    const shrinkFile = join(huntDir, 'shrink', 'shrink.json');
    // The hunt's own find (a hunt.json older than `find` names none: its first violation then).
    const found = hunt.find != null ? hunt.tries.findIndex((t) => t.index === hunt.find) : hunt.tries.findIndex((t) => t.outcome === 'unsafe');
    return [
      {
        library: facts.library,
        backend: facts.backend,
        resource: facts.resource,
        exitCode: hunt.exitCode,
        tries: hunt.tries.length,
        tested: hunt.tries.filter((t) => t.outcome === 'safe').length,
        lines: hunt.lines,
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
