#!/usr/bin/env node
/**
 * `npm run queues`: run the queue matrix (core/queue/queue-matrix.ts: every queue
 * library under a stalled worker in each resource mode, and under a killed worker)
 * on real servers, one run a cell, several at once in slots of their own, and write
 * docs/queues.md's generated table from what the runs recorded. A maintainer's entry
 * point beside the CLI (as `npm run libraries` is), not a fencecheck command.
 *
 * Each cell's record is kept as DIR/cells/<cell>.json beside its run directory (DIR/runs),
 * so an interrupted matrix resumes where it stopped (`--out` the same DIR: a cell with a
 * record is not run again) and `--from DIR` only renders.
 *
 *   npm run queues                                   # the whole matrix, then docs/queues.md (root; npm run setup)
 *   npm run queues -- --only bullmq,pg-boss --doc /tmp/q.md   # a smaller matrix
 *   npm run queues -- --from results/queues/queues-<stamp>     # only render
 *   npm run queues -- --dry-run                      # the cells and the command that replays each
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { FencecheckError, UsageError } from '../../core/errors.js';
import { parseInRange } from '../../core/number-range.js';
import { RUN_RANGES } from '../../core/plan/run-options.js';
import { cellOptions, librariesNamed, MATRIX_SETTINGS, queueMatrixCells, type MatrixSettings, type QueueCell } from '../../core/queue/queue-matrix.js';
import { queueReplayCommand } from '../../core/queue/queue-options.js';
import { outcomeExitCode } from '../../core/run-files/stored-outcome.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import { Lanes } from '../hunt/lanes.js';
import { renderQueueMatrix, replaceGenerated, type QueueCellRecord } from '../queue/render-queues-md.js';
import { machine } from './machine-line.js';
import { FLAG_RANGES, numberFlag, withRange } from './parse-options.js';
import { parallelLanes } from './parallel-flag.js';
import { runMaintainerEntry } from './maintainer-entry.js';

interface Flags {
  out?: string;
  from?: string;
  only?: string;
  doc: string;
  parallel?: number;
  timeLimit?: number;
  seed?: number;
  dryRun?: boolean;
}

/** How long a lane waits for its slot when another command holds it. */
const SLOT_WAIT_MS = 10 * 60_000;

const program = new Command()
  .name('npm run queues --')
  .description("Run every queue library under a stalled and a killed worker, in each resource mode, and write docs/queues.md's generated table.")
  .option('--only <libraries>', 'only these libraries, comma-separated (the rest of the table shows them as not measured)')
  .option('--out <dir>', 'where the runs and their records go (default results/queues/queues-<timestamp>); an existing one resumes')
  .option('--from <dir>', 'do not run: render the records in this directory')
  .option('--doc <file>', 'the document whose generated table is replaced', 'docs/queues.md')
  .option('--parallel <n>', withRange('runs at once, each on a cluster of its own (a slot)', FLAG_RANGES['--parallel']), numberFlag('--parallel'))
  .option(
    '--time-limit <s>',
    withRange(`seconds a run, instead of ${MATRIX_SETTINGS.timeLimitS}`, RUN_RANGES.timeLimitS),
    parseInRange('--time-limit', RUN_RANGES.timeLimitS),
  )
  .option('--seed <n>', withRange(`the runs' seed, instead of ${MATRIX_SETTINGS.seed}`, RUN_RANGES.seed), parseInRange('--seed', RUN_RANGES.seed))
  .option('--dry-run', 'print the cells and the command that replays each, run nothing')
  .exitOverride();

async function main(f: Flags): Promise<void> {
  const { libraries, unknown } = librariesNamed(f.only);
  if (unknown.length > 0 || libraries.length === 0)
    throw new UsageError(
      `Expected \`--only\` to name queue libraries, got \`${unknown.join(',') || f.only}\``,
      `The libraries: ${queueMatrixCells()
        .map((c) => c.library.name)
        .filter((n, i, all) => all.indexOf(n) === i)
        .join(', ')}.`,
    );
  const settings: MatrixSettings = {
    ...MATRIX_SETTINGS,
    ...(f.timeLimit !== undefined ? { timeLimitS: f.timeLimit } : {}),
    ...(f.seed !== undefined ? { seed: f.seed } : {}),
  };
  const cells = queueMatrixCells(libraries);
  const dir = resolve(f.from ?? f.out ?? join(projectRoot(), 'results', 'queues', `queues-${stamp()}`));
  if (f.dryRun === true) {
    for (const c of cells)
      process.stdout.write(
        `${c.id}: ${c.notServed !== undefined ? `n/a (${c.notServed})` : queueReplayCommand(cellOptions(c, settings, join(dir, 'runs')))}\n`,
      );
    return;
  }
  if (f.from !== undefined) {
    if (!existsSync(join(dir, 'cells')))
      throw new UsageError(`Expected ${join(dir, 'cells')} to exist`, 'Name a directory `npm run queues` wrote (its --out), or run without --from.');
  } else {
    const parallel = parallelLanes(f.parallel);
    process.stderr.write(`queues: ${cells.length} cells into ${dir}; ${parallel.said}\n`);
    await runCells(cells, settings, dir, parallel.lanes);
  }
  // The replay commands as a person types them from the project root (the results path inside it made relative).
  const root = `${projectRoot()}/`;
  const records = cells.map((c) => readRecord(dir, c)).map((r) => (r.replay === undefined ? r : { ...r, replay: r.replay.split(root).join('') }));
  const doc = resolve(f.doc);
  const section = renderQueueMatrix(records, {
    machine: machine(),
    date: (records.map((r) => r.startedAt).find((t) => t !== undefined) ?? new Date().toISOString()).slice(0, 10),
    wall: wallOf(records),
    settings: `seed ${settings.seed}, --time-limit ${settings.timeLimitS}, ${settings.workers} workers, the run command's other defaults`,
  });
  writeFileAtomic(doc, replaceGenerated(existsSync(doc) ? readFileSync(doc, 'utf8') : '', section, f.doc));
  const measured = records.filter((r) => r.outcome !== undefined).length;
  process.stdout.write(
    `queues: ${f.doc} written: ${measured} cell(s) measured, ${records.filter((r) => r.notServed !== undefined).length} n/a, ${records.length - measured - records.filter((r) => r.notServed !== undefined).length} not measured\n`,
  );
}

/** Every cell without a record, on `lanes` slots (1..lanes) at once; a cell whose run fails is recorded with its error and the rest go on. */
async function runCells(cells: readonly QueueCell[], settings: MatrixSettings, dir: string, lanes: number): Promise<void> {
  mkdirSync(join(dir, 'cells'), { recursive: true });
  const { runQueueTest } = await import('../run/run-queue-test.js');
  const pool = new Lanes(lanes);
  const todo = cells.filter((c) => !existsSync(recordPath(dir, c)));
  let done = 0;
  await Promise.all(
    todo.map((cell) =>
      pool.use(async (lane) => {
        const slot = lane + 1;
        const base = baseRecord(cell);
        if (cell.notServed !== undefined) return writeRecord(dir, cell, { ...base, notServed: cell.notServed });
        const o = cellOptions(cell, settings, join(dir, 'runs'));
        const started = Date.now();
        const log = (l: string): void => void process.stderr.write(`[slot ${slot} ${cell.id}] ${l}\n`);
        try {
          const r = await runQueueTest(o, { log, busyTimeoutMs: SLOT_WAIT_MS, slot });
          const queue = r.results.checkers.find((c) => c.checker === 'total-queue');
          writeRecord(dir, cell, {
            ...base,
            outcome: r.results.outcome,
            exitCode: outcomeExitCode(r.results),
            counts: queue?.stats ?? {},
            anomalies: (queue?.anomalies ?? []).slice(0, 3).map((a) => a.message),
            runDir: relative(dir, r.runDir),
            replay: r.replay,
            startedAt: new Date(started).toISOString(),
            durationMs: Date.now() - started,
          });
          process.stderr.write(`queues: ${++done}/${todo.length} ${cell.id}: ${r.results.outcome} (${queue?.summary ?? 'no verdict'})\n`);
        } catch (err) {
          if (!(err instanceof FencecheckError)) throw err;
          writeRecord(dir, cell, { ...base, error: err.message, replay: queueReplayCommand(o) });
          process.stderr.write(`queues: ${++done}/${todo.length} ${cell.id}: not measured: ${err.message}\n`);
        }
      }),
    ),
  );
}

/** The matrix's wall time, from its first run's start to its last run's end, beside the runs' own sum. */
function wallOf(records: readonly QueueCellRecord[]): string {
  const runs = records.filter((r) => r.startedAt !== undefined && r.durationMs !== undefined);
  if (runs.length === 0) return 'no run measured';
  const start = Math.min(...runs.map((r) => Date.parse(r.startedAt!)));
  const end = Math.max(...runs.map((r) => Date.parse(r.startedAt!) + r.durationMs!));
  const sum = runs.reduce((t, r) => t + r.durationMs!, 0);
  const min = (ms: number): string => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${min(end - start)} of wall time for ${runs.length} runs that took ${min(sum)} one after another`;
}

function baseRecord(cell: QueueCell): QueueCellRecord {
  return { id: cell.id, library: cell.library.name, server: cell.library.server, fault: cell.fault, mode: cell.mode };
}

function recordPath(dir: string, cell: QueueCell): string {
  return join(dir, 'cells', `${cell.id}.json`);
}

function writeRecord(dir: string, cell: QueueCell, record: QueueCellRecord): void {
  writeFileAtomic(recordPath(dir, cell), JSON.stringify(record, null, 2) + '\n');
}

/** A cell's record, or one that says it was not measured (a smaller or interrupted matrix). */
function readRecord(dir: string, cell: QueueCell): QueueCellRecord {
  const file = recordPath(dir, cell);
  if (!existsSync(file)) return { ...baseRecord(cell), ...(cell.notServed !== undefined ? { notServed: cell.notServed } : { error: 'not run' }) };
  try {
    return { ...(JSON.parse(readFileSync(file, 'utf8')) as QueueCellRecord), ...baseRecord(cell) };
  } catch (err) {
    throw new UsageError(
      `Expected ${file} to be a cell record (JSON), got: ${(err as Error).message}`,
      'Delete it to run that cell again (--out the same directory).',
    );
  }
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}

await runMaintainerEntry<Flags>(program, main);
