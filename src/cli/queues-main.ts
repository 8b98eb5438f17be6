#!/usr/bin/env node
/**
 * `npm run queues`: run the queue matrix (core/queue/queue-matrix.ts: every queue
 * library under a stalled worker in each resource mode, under a killed worker, and under
 * its server killed: without persistence, with Redis's AOF, behind Sentinels),
 * or with --claims the claims' rows at several seeds (core/queue/queue-claims.ts), on
 * real servers, several runs at once in slots of their own (src/queue/run-queue-cells.ts),
 * and write docs/queues.md's generated table from what the runs recorded. A maintainer's
 * entry point beside the CLI (as `npm run libraries` is), not a fencecheck command.
 *
 *   npm run queues                                   # the whole matrix, then docs/queues.md (root; npm run setup)
 *   npm run queues -- --claims                       # the claims, 5 seeds a row, then "The claims"
 *   npm run queues -- --only bullmq,pg-boss --doc /tmp/q.md   # a smaller matrix
 *   npm run queues -- --from results/queues/queues-matrix-<stamp>   # only render (add --claims for a claims dir)
 *   npm run queues -- --shrink                       # and each unsafe cell's run shrunk (resumes with --out / --from DIR)
 *   npm run queues -- --weigh 5                      # and each safe cell run at 4 more seeds, its weight said
 *   npm run queues -- --dry-run                      # the cells and the command that replays each
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { parseInRange } from '../../core/number-range.js';
import { RUN_RANGES } from '../../core/plan/run-options.js';
import { CLAIM_SEEDS, claimCellOptions, claimCells, QUEUE_CLAIMS, type ClaimCell } from '../../core/queue/queue-claims.js';
import { QUEUE_LIBRARIES, type QueueLibrary } from '../../core/queue/queue-libraries.js';
import { cellOptions, librariesNamed, MATRIX_SETTINGS, queueMatrixCells, type MatrixSettings } from '../../core/queue/queue-matrix.js';
import { queueReplayCommand, queueRunFlags } from '../../core/queue/queue-options.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import { CLAIM_MARKERS, renderQueueClaims, type ClaimRecord } from '../queue/render-queue-claims-md.js';
import { renderQueueMatrix, replaceGenerated, type QueueCellRecord } from '../queue/render-queues-md.js';
import { readQueueCellRecord, runQueueCells, wallOf, type QueueCellJob } from '../queue/run-queue-cells.js';
import { readShrunkCells, shrinkQueueCells } from '../queue/shrink-queue-cells.js';
import { weighJobs, weighLines } from '../queue/weigh-queue-cells.js';
import { machine } from './machine-line.js';
import { runMaintainerEntry } from './maintainer-entry.js';
import { FLAG_RANGES, numberFlag, withRange } from './parse-options.js';
import { parallelLanes } from './parallel-flag.js';

interface Flags {
  out?: string;
  from?: string;
  only?: string;
  doc: string;
  parallel?: number;
  timeLimit?: number;
  seed?: number;
  claims?: boolean;
  seeds?: number;
  dryRun?: boolean;
  shrink?: boolean;
  weigh?: number;
  shrinkRuns: number;
  shrinkMinFails: number;
  shrinkMaxCandidates: number;
}

const program = new Command()
  .name('npm run queues --')
  .description(
    "Run every queue library under a stalled and a killed worker, in each resource mode (or, with --claims, the claims' rows over several seeds), and write docs/queues.md's generated table.",
  )
  .option('--claims', `run the claims' rows (at least once, idempotent, the attempt fence) at --seeds seeds each, and write "The claims"`)
  .option(
    '--seeds <n>',
    withRange(`with --claims, seeds a row (consecutive from --seed), instead of ${CLAIM_SEEDS}`, FLAG_RANGES['--seeds']),
    numberFlag('--seeds'),
  )
  .option('--only <libraries>', 'only these libraries, comma-separated (the rest of the table shows them as not measured)')
  .option('--out <dir>', 'where the runs and their records go (default results/queues/queues-<timestamp>); an existing one resumes')
  .option('--from <dir>', 'do not run: render the records in this directory')
  .option('--doc <file>', 'the document whose generated table is replaced', 'docs/queues.md')
  .option('--parallel <n>', withRange('runs at once, each on a cluster of its own (a slot)', FLAG_RANGES['--parallel']), numberFlag('--parallel'))
  .option(
    '--time-limit <s>',
    withRange(`seconds a matrix run, instead of ${MATRIX_SETTINGS.timeLimitS}`, RUN_RANGES.timeLimitS),
    parseInRange('--time-limit', RUN_RANGES.timeLimitS),
  )
  .option('--seed <n>', withRange(`the runs' (first) seed, instead of ${MATRIX_SETTINGS.seed}`, RUN_RANGES.seed), parseInRange('--seed', RUN_RANGES.seed))
  .option('--dry-run', 'print the cells and the command that replays each, run nothing')
  .option(
    '--shrink',
    "shrink each unsafe matrix cell's failing run on real clusters (with --from: the cells of that directory), and list the shrunk reproductions under the table",
  )
  .option(
    '--weigh <n>',
    withRange(
      "run each safe matrix cell again at the next n - 1 seeds and say what its tested seeds rule out (with --from: that directory's cells)",
      FLAG_RANGES['--weigh'],
    ),
    numberFlag('--weigh'),
  )
  .option('--shrink-runs <K>', withRange('re-runs of each shrink candidate', FLAG_RANGES['--shrink-runs']), numberFlag('--shrink-runs'), 3)
  .option(
    '--shrink-min-fails <k>',
    withRange('failures among them to keep a candidate', FLAG_RANGES['--shrink-min-fails']),
    numberFlag('--shrink-min-fails'),
    2,
  )
  .option('--shrink-max-candidates <n>', withRange('candidates a cell', FLAG_RANGES['--shrink-max-candidates']), numberFlag('--shrink-max-candidates'), 8)
  .exitOverride();

async function main(f: Flags): Promise<void> {
  const { libraries, unknown } = librariesNamed(f.only);
  if (unknown.length > 0 || libraries.length === 0)
    throw new UsageError(
      `Expected \`--only\` to name queue libraries, got \`${unknown.join(',') || f.only}\``,
      `The libraries: ${QUEUE_LIBRARIES.map((l) => l.name).join(', ')}.`,
    );
  if (f.shrink === true && f.claims === true)
    throw new UsageError('Expected `--shrink` without `--claims`', "The claims' rows weigh seeds; the matrix's unsafe cells are what --shrink shrinks.");
  if (f.shrinkMinFails > f.shrinkRuns)
    throw new UsageError(
      `Expected \`--shrink-min-fails\` to be at most \`--shrink-runs\` (${f.shrinkRuns}), got \`${f.shrinkMinFails}\``,
      'k failures of K re-runs: k <= K.',
    );
  if (f.seeds !== undefined && f.claims !== true)
    throw new UsageError('Expected `--seeds` only with `--claims`', 'The matrix runs one seed a cell (--seed); the claims run --seeds seeds a row.');
  const part = f.claims === true ? 'claims' : 'matrix';
  const dir = resolve(f.from ?? f.out ?? join(projectRoot(), 'results', 'queues', `queues-${part}-${stamp()}`));
  const names = new Set(libraries.map((l) => l.name));
  const firstSeed = f.seed ?? MATRIX_SETTINGS.seed;
  const seeds = f.seeds ?? CLAIM_SEEDS;
  const jobs = f.claims === true ? claimJobs(firstSeed, seeds, names, dir) : matrixJobs(libraries, settingsOf(f), dir);
  if (f.dryRun === true) {
    for (const j of jobs) process.stdout.write(`${j.id}: ${j.options === undefined ? `n/a (${j.base.notServed})` : queueReplayCommand(j.options)}\n`);
    return;
  }
  if (f.from !== undefined) {
    if (!existsSync(join(dir, 'cells')))
      throw new UsageError(`Expected ${join(dir, 'cells')} to exist`, 'Name a directory `npm run queues` wrote (its --out), or run without --from.');
  } else {
    const parallel = parallelLanes(f.parallel);
    process.stderr.write(`queues: ${jobs.length} ${part} cells into ${dir}; ${parallel.said}\n`);
    await runQueueCells(jobs, dir, parallel.lanes, (l) => void process.stderr.write(`${l}\n`));
  }
  if (f.weigh !== undefined && f.claims === true)
    throw new UsageError('Expected `--weigh` without `--claims`', "The claims already run --seeds seeds a row; --weigh weighs the matrix's safe cells.");
  const settings0 = settingsOf(f);
  const weighJobList =
    f.weigh === undefined || f.claims === true
      ? []
      : weighJobs(
          jobs.map((j) => readQueueCellRecord(dir, j)),
          (id, seed) => {
            const cell = queueMatrixCells(libraries).find((c) => c.id === id);
            return cell === undefined || cell.notServed !== undefined ? undefined : cellOptions(cell, { ...settings0, seed }, join(dir, 'runs'));
          },
          settings0.seed,
          f.weigh,
        );
  if (weighJobList.length > 0) {
    const parallel = parallelLanes(f.parallel);
    process.stderr.write(`queues: weighing ${weighJobList.length} runs (safe cells at ${f.weigh! - 1} more seeds); ${parallel.said}\n`);
    await runQueueCells(weighJobList, dir, parallel.lanes, (l) => void process.stderr.write(`${l}\n`));
  }
  const rule = { runs: f.shrinkRuns, minFails: f.shrinkMinFails, maxCandidates: f.shrinkMaxCandidates };
  if (f.shrink === true) {
    const parallel = parallelLanes(f.parallel);
    await shrinkQueueCells(
      jobs.map((j) => readQueueCellRecord(dir, j)),
      dir,
      parallel.lanes,
      rule,
      (l) => void process.stderr.write(`${l}\n`),
    );
  }
  // The replay commands as a person types them from the project root (the results path inside it made relative).
  const root = `${projectRoot()}/`;
  const relative = (cmd: string): string => cmd.split(root).join('');
  const records = jobs.map((j) => readQueueCellRecord(dir, j)).map((r) => (r.replay === undefined ? r : { ...r, replay: relative(r.replay) }));
  const shrunk = readShrunkCells(dir, records).map((s) => (s.replay === undefined ? s : { ...s, replay: relative(s.replay) }));
  const weighRecords = weighJobList.map((j) => readQueueCellRecord(dir, j)).map((r) => (r.replay === undefined ? r : { ...r, replay: relative(r.replay) }));
  const date = (records.map((r) => r.startedAt).find((t) => t !== undefined) ?? new Date().toISOString()).slice(0, 10);
  const doc = resolve(f.doc);
  const before = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
  if (f.claims === true) {
    const section = renderQueueClaims(QUEUE_CLAIMS, records as ClaimRecord[], {
      date,
      wall: wallOf(records),
      seeds: `${seeds} seeds (${firstSeed}–${firstSeed + seeds - 1})`,
    });
    writeFileAtomic(doc, replaceGenerated(before, section, f.doc, CLAIM_MARKERS));
  } else {
    const settings = settingsOf(f);
    const section = renderQueueMatrix(
      records,
      {
        machine: machine(),
        date,
        wall: wallOf(records),
        settings: `seed ${settings.seed}, --time-limit ${settings.timeLimitS}, ${settings.workers} workers, the run command's other defaults`,
      },
      {
        shrunk,
        shrinkRule: `a candidate kept when ${rule.minFails} of ${rule.runs} re-runs fail, at most ${rule.maxCandidates} candidates a cell`,
        weighed: f.weigh === undefined ? [] : weighLines(records, weighRecords, settings.seed, f.weigh),
      },
    );
    writeFileAtomic(doc, replaceGenerated(before, section, f.doc));
  }
  const measured = records.filter((r) => r.outcome !== undefined).length;
  const na = records.filter((r) => r.notServed !== undefined).length;
  process.stdout.write(`queues: ${f.doc} written (${part}): ${measured} cell(s) measured, ${na} n/a, ${records.length - measured - na} not measured\n`);
}

function settingsOf(f: Flags): MatrixSettings {
  return { ...MATRIX_SETTINGS, ...(f.timeLimit !== undefined ? { timeLimitS: f.timeLimit } : {}), ...(f.seed !== undefined ? { seed: f.seed } : {}) };
}

function matrixJobs(libraries: readonly QueueLibrary[], settings: MatrixSettings, dir: string): QueueCellJob<QueueCellRecord>[] {
  return queueMatrixCells(libraries).map((cell) => {
    const base: QueueCellRecord = { id: cell.id, library: cell.library.name, server: cell.serverLabel, fault: cell.fault, mode: cell.mode };
    return cell.notServed !== undefined
      ? { id: cell.id, base: { ...base, notServed: cell.notServed }, options: undefined }
      : { id: cell.id, base, options: cellOptions(cell, settings, join(dir, 'runs')) };
  });
}

/** The claims' cells of the libraries asked for (a row of another library is left out, not run). */
function claimJobs(firstSeed: number, seeds: number, libraries: ReadonlySet<string>, dir: string): QueueCellJob<ClaimRecord>[] {
  return claimCells(firstSeed, seeds)
    .filter((c) => libraries.has(c.library.name))
    .map((cell) => ({
      id: cell.id,
      base: {
        id: cell.id,
        library: cell.library.name,
        server: cell.library.server,
        fault: cell.row.fault,
        mode: cell.row.mode,
        claim: cell.claim.id,
        rowKey: cell.rowKey,
        seed: cell.seed,
        settings: settingsFlags(cell),
      },
      options: claimCellOptions(cell, join(dir, 'runs')),
    }));
}

/** A claim row's settings apart from the matrix's, as the run command's flags (those of its replay that differ). */
function settingsFlags(cell: ClaimCell): string {
  const plain = claimCellOptions({ ...cell, row: { library: cell.row.library, mode: cell.row.mode, fault: cell.row.fault } }, 'results');
  const matrix = new Map(queueRunFlags(plain));
  return queueRunFlags(claimCellOptions(cell, 'results'))
    .filter(([flag, value]) => matrix.get(flag) !== value)
    .map(([flag, value]) => `\`${flag} ${value}\``)
    .join(' ');
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}

await runMaintainerEntry<Flags>(program, main);
