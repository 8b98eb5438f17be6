/**
 * npm run bench:hunt -- [--target id,...] [--seeds N] [--first-seed S] [--budget 10m] [--parallel N]
 *                       [--queue /tmp/fc-cluster.lock] [--out FILE] [--cli main.js] [--build COMMIT] [--round-robin]
 *                       [--shrink | --shrink-found | --table-only]
 *
 * Runs the real `fencecheck hunt` (dist/bundle/main.js, a child process per
 * hunt) from scratch on each target of bench/hunt-targets.ts, once per hunt
 * seed, and measures runs-to-detection and time-to-detection from the hunt's
 * own hunt.json (its clock starts when the hunt does, so time spent waiting
 * for the machine's queue is not counted). With `--queue FILE` each hunt
 * runs under `flock FILE`, so a shared machine's other users get the
 * cluster between hunts. Each hunt's row is appended to --out (JSON Lines,
 * default results/bench-hunt/rows.jsonl), so targets measured in separate
 * sittings add up; at the end the table over every row in the file is
 * printed (markdown, for docs/hunt.md). Starts real clusters: root only.
 *
 * Shrinks (bench/hunt-shrink.ts): with `--shrink` each hunt shrinks its find
 * on its warm lanes, as a user's hunt does; `--shrink-found` runs no hunt but
 * `fencecheck shrink RUN_DIR` on each find in --out not yet shrunk (the
 * command a hunt with --no-shrink prints), appending the row again with its
 * shrink. Either way the table of shrinks follows the hunts' table.
 */
import { appendFileSync, mkdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs as parseCliArgs } from 'node:util';
import { execa } from 'execa';
import { BENCH_TARGETS, benchTarget, huntArgv, type BenchTarget } from './hunt-targets.js';
import { huntRow, huntTable, type HuntRow } from './hunt-table.js';
import { shrinkFacts, shrinkTable } from './hunt-shrink.js';

interface Args {
  targets: BenchTarget[];
  seeds: number;
  firstSeed: number;
  budget: string;
  queue: string | undefined;
  out: string;
  tableOnly: boolean;
  /** The CLI to run (default dist/bundle/main.js): a copy keeps one sitting's build while the tree is rebuilt. */
  cli: string;
  /** What build the CLI is (a commit), recorded in each row. */
  build: string | undefined;
  roundRobin: boolean;
  /** Each hunt's --parallel (absent: the hunt's default for the machine); put it in --build to tell rows apart. */
  parallel: string | undefined;
  /** Each hunt shrinks its find (no --no-shrink). */
  shrink: boolean;
  /** No hunts: `fencecheck shrink` of each find in --out that has no shrink yet. */
  shrinkFound: boolean;
}

const USAGE = `npm run bench:hunt -- [--target id,...] [--seeds N] [--first-seed S] [--budget 10m] [--parallel N]
                      [--queue /tmp/fc-cluster.lock] [--out FILE] [--cli main.js] [--build COMMIT] [--round-robin]
                      [--shrink | --shrink-found | --table-only]
targets: ${BENCH_TARGETS.map((t) => t.id).join(', ')}`;

/** The options, strictly: an unknown flag or --help prints the usage instead of starting real hunts. */
function parseArgs(argv: readonly string[]): Args | undefined {
  const { values: v } = parseCliArgs({
    args: [...argv],
    strict: true,
    options: {
      target: { type: 'string' },
      seeds: { type: 'string' },
      'first-seed': { type: 'string' },
      budget: { type: 'string' },
      queue: { type: 'string' },
      out: { type: 'string' },
      cli: { type: 'string' },
      build: { type: 'string' },
      'round-robin': { type: 'boolean' },
      parallel: { type: 'string' },
      'table-only': { type: 'boolean' },
      shrink: { type: 'boolean' },
      'shrink-found': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) return undefined;
  const ids = v.target?.split(',') ?? BENCH_TARGETS.map((t) => t.id);
  const seeds = Number(v.seeds ?? 5);
  const firstSeed = Number(v['first-seed'] ?? 1);
  if (!Number.isInteger(seeds) || seeds < 1 || !Number.isInteger(firstSeed) || firstSeed < 0)
    throw new Error('--seeds must be an integer >= 1 and --first-seed >= 0');
  if ([v.shrink, v['shrink-found'], v['table-only']].filter(Boolean).length > 1) throw new Error('--shrink, --shrink-found and --table-only: one at most');
  return {
    targets: ids.map(benchTarget),
    seeds,
    firstSeed,
    budget: v.budget ?? '10m',
    queue: v.queue,
    out: v.out ?? join('results', 'bench-hunt', 'rows.jsonl'),
    tableOnly: v['table-only'] ?? false,
    cli: v.cli ?? join(process.cwd(), 'dist', 'bundle', 'main.js'),
    build: v.build,
    roundRobin: v['round-robin'] ?? false,
    parallel: v.parallel,
    shrink: v.shrink ?? false,
    shrinkFound: v['shrink-found'] ?? false,
  };
}

/** One hunt as a user runs it; its stderr (the tries' progress) goes to a log beside the rows. */
async function oneHunt(t: BenchTarget, seed: number, a: Args): Promise<HuntRow> {
  const results = join(dirname(a.out), t.id);
  const argv = [a.cli, ...huntArgv(t, seed, a.budget, results, { shrink: a.shrink }), ...parallelArgv(a)];
  const [file, args] = queued(a, argv);
  const log = join(results, `seed-${seed}.log`);
  mkdirSync(results, { recursive: true });
  const started = Date.now();
  const r = await execa(file, args, { reject: false, stderr: { file: log }, stdout: 'pipe' });
  const wallMs = Date.now() - started;
  // The hunt's last stdout line names its hunt.json.
  const huntJson = /^hunt: (.+hunt\.json)$/m.exec(r.stdout)?.[1];
  if (!huntJson || !existsSync(huntJson))
    return {
      target: t.id,
      seed,
      budget: a.budget,
      exitCode: r.exitCode ?? -1,
      error: `no hunt.json (exit ${r.exitCode}; see ${log}): ${r.stdout.slice(-300)}`,
      tries: 0,
      found: null,
      wallMs,
      huntJson: null,
      date: new Date().toISOString(),
    };
  const row = huntRow(t.id, seed, a.budget, r.exitCode ?? -1, JSON.parse(readFileSync(huntJson, 'utf8')) as unknown, huntJson, wallMs);
  // The hunt's shrink is timed by its shrink.json; a plan not shrunk writes none, so its time is not known here.
  return a.shrink && row.found !== null ? { ...row, shrink: shrinkFacts('hunt', r.stdout, readJson, null) } : row;
}

/** `fencecheck shrink` of a row's find, as the hunt printed it; the row again with the shrink's facts. */
async function shrinkFound(row: HuntRow, a: Args): Promise<HuntRow> {
  const results = join(dirname(a.out), row.target, 'shrinks', String(row.seed));
  mkdirSync(results, { recursive: true });
  const argv = [a.cli, 'shrink', shrinkFrom(row)!, '--results', results, ...parallelArgv(a)];
  const [file, args] = queued(a, argv);
  const started = Date.now();
  const r = await execa(file, args, { reject: false, stderr: { file: join(results, 'shrink.log') }, stdout: 'pipe' });
  return { ...row, shrink: shrinkFacts('command', r.stdout, readJson, Date.now() - started) };
}

const parallelArgv = (a: Args): string[] => (a.parallel !== undefined ? ['--parallel', a.parallel] : []);

/** A command under the machine's queue (`flock FILE`) when asked. */
const queued = (a: Args, argv: string[]): [string, string[]] => (a.queue ? ['flock', [a.queue, process.execPath, ...argv]] : [process.execPath, argv]);

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** The last row of each target × seed (as the table counts them) whose find has no shrink yet. */
function unshrunk(rows: readonly HuntRow[], targets: readonly BenchTarget[]): HuntRow[] {
  return lastOfEach(rows).filter((r) => targets.some((t) => t.id === r.target) && r.shrink === undefined && existsSync(shrinkFrom(r) ?? ''));
}

/** The find a hunt shrinks: the try its answer names (hunt.json's `find`), else its first violation. */
const shrinkFrom = (r: HuntRow): string | null => r.found?.reportedRunDir ?? r.found?.runDir ?? null;

/** Target by target, or with --round-robin seed by seed across the targets (a sitting cut short then has some seeds of each). */
function huntOrder(a: Args): [BenchTarget, number][] {
  const seeds = Array.from({ length: a.seeds }, (_, i) => a.firstSeed + i);
  return a.roundRobin
    ? seeds.flatMap((s) => a.targets.map((t): [BenchTarget, number] => [t, s]))
    : a.targets.flatMap((t) => seeds.map((s): [BenchTarget, number] => [t, s]));
}

/** The rows, each read again from its hunt.json when that is still there (rows written before a field existed get it). */
function readRows(file: string): HuntRow[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const row = JSON.parse(l) as HuntRow;
      if (row.huntJson === null || !existsSync(row.huntJson)) return row;
      const again = huntRow(
        row.target,
        row.seed,
        row.budget,
        row.exitCode,
        JSON.parse(readFileSync(row.huntJson, 'utf8')) as unknown,
        row.huntJson,
        row.wallMs,
      );
      return {
        ...again,
        date: row.date,
        ...(row.build ? { build: row.build } : {}),
        ...(row.error !== undefined ? { error: row.error } : {}),
        ...(row.shrink !== undefined ? { shrink: row.shrink } : {}),
      };
    });
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  if (!a) return void process.stdout.write(`${USAGE}\n`);
  mkdirSync(dirname(a.out), { recursive: true });
  if (a.shrinkFound) {
    for (const row of unshrunk(readRows(a.out), a.targets)) {
      process.stderr.write(`bench:hunt: shrinking ${row.target} seed ${row.seed}'s find (${shrinkFrom(row)})\n`);
      const shrunk = await shrinkFound(row, a);
      appendFileSync(a.out, JSON.stringify(shrunk) + '\n');
      process.stderr.write(`bench:hunt: ${row.target} seed ${row.seed}: ${shrunk.shrink!.line} (${Math.round((shrunk.shrink!.elapsedMs ?? 0) / 1000)} s)\n`);
    }
  } else if (!a.tableOnly) {
    for (const [t, seed] of huntOrder(a)) {
      {
        process.stderr.write(`bench:hunt: ${t.id} seed ${seed} (budget ${a.budget}${a.queue ? `, queued on ${a.queue}` : ''})\n`);
        const row = { ...(await oneHunt(t, seed, a)), ...(a.build ? { build: a.build } : {}) };
        appendFileSync(a.out, JSON.stringify(row) + '\n');
        process.stderr.write(
          `bench:hunt: ${t.id} seed ${seed}: exit ${row.exitCode}, ${row.found ? `found on try ${row.found.tryNumber} after ${Math.round(row.found.afterMs / 1000)} s (${row.found.arms})` : `not found in ${row.tries} tries`}${row.error ? `; ${row.error}` : ''}\n`,
        );
      }
    }
  }
  const rows = readRows(a.out);
  process.stdout.write(huntTable(rows, BENCH_TARGETS) + '\n');
  const shrinks = shrinkTable(lastOfEach(rows), BENCH_TARGETS);
  if (shrinks !== null) process.stdout.write(`\nShrinks:\n\n${shrinks}\n`);
}

/** The last row of each target × seed, as the hunts' table counts them. */
function lastOfEach(rows: readonly HuntRow[]): HuntRow[] {
  return [...new Map(rows.map((r) => [`${r.target}#${r.seed}`, r])).values()];
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:hunt: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exitCode = 1;
});
