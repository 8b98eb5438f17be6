#!/usr/bin/env node
/**
 * `npm run libraries`: measure the npm lock libraries (libraries-matrix.ts) with
 * `fencecheck compare --lock-clients …` and write docs/libraries.md from its
 * compare.json. A maintainer's entry point beside the CLI (as bench/ is), not a
 * fencecheck command: it runs the real compare command as a child (so the
 * document quotes the exact command that made it), then renders.
 *
 * The matrix has parts (libraries-matrix.ts: every library under client pause and
 * partition, then a server pause for some), each its own `compare` into DIR/<part>,
 * then `compare --merge` of them into DIR/merged, which the document is made from.
 *
 *   npm run libraries                        # the whole matrix, 2 seeds (needs root and the npm clients: setup --node)
 *   npm run libraries -- --from DIR          # only re-render docs/libraries.md from DIR/merged
 *   npm run libraries -- --seeds 1 --time-limit 10 --only simple-redis-mutex,etcd3-lock --doc /tmp/x.md   # a tiny matrix
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import type { CompareReport } from '../compare/compare-report.js';
import { LIBRARIES_PARTS, type LibrariesPart } from '../compare/libraries-matrix.js';
import { renderLibrariesMd, type LibrariesRunFacts } from '../compare/render-libraries-md.js';
import { compiledEntry, projectRoot } from '../../runtime/hosts/paths.js';
import { EXIT, FencecheckError, formatError, UsageError } from '../../core/errors.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { FLAG_RANGES, numberFlag, withRange } from './parse-options.js';
import { parseInRange } from '../../core/number-range.js';
import { RUN_RANGES } from '../../core/plan/run-options.js';

const FACTS_FILE = 'libraries-run.json';

interface Flags {
  seeds: number;
  timeLimit: number;
  only?: string;
  out?: string;
  doc: string;
  from?: string;
  dryRun?: boolean;
}

const program = new Command()
  .name('npm run libraries --')
  .description('Compare the npm lock libraries (fencecheck compare --lock-clients) and write docs/libraries.md from the result.')
  .option('--seeds <n>', withRange('runs per cell', FLAG_RANGES['--seeds']), numberFlag('--seeds'), 2)
  .option('--time-limit <s>', withRange('seconds per run', RUN_RANGES.timeLimitS), parseInRange('--time-limit', RUN_RANGES.timeLimitS), 15)
  .option('--only <clients>', 'only these clients (a tiny matrix to try the pipeline)')
  .option('--out <dir>', 'the directory of the comparisons (default results/compare/libraries-<timestamp>)')
  .option('--doc <file>', 'the document to write', 'docs/libraries.md')
  .option('--from <dir>', 'do not run: render the document from the comparisons in this directory')
  .option('--dry-run', 'print the compare commands and their plans, run nothing')
  .exitOverride();

try {
  program.parse(process.argv);
  main(program.opts<Flags>());
} catch (err) {
  // Commander has printed its own message (or the help); ours get their hint. Anything else is a bug: let it show.
  if (err instanceof CommanderError) process.exitCode = err.exitCode === 0 ? 0 : EXIT.badInput;
  else if (err instanceof FencecheckError) {
    process.stderr.write(`${formatError(err)}\n`);
    process.exitCode = err.exitCode;
  } else throw err;
}

function main(flags: Flags): void {
  const dir = resolve(flags.from ?? flags.out ?? join('results', 'compare', `libraries-${stamp()}`));
  const merged = join(dir, 'merged');
  if (flags.from === undefined) {
    const only = flags.only?.split(',').map((s) => s.trim());
    const parts = LIBRARIES_PARTS.map((p) => ({ ...p, clients: p.clients.filter((c) => only === undefined || only.includes(c)) })).filter((p) => p.clients.length > 0);
    if (parts.length === 0) throw new UsageError(`Expected \`--only\` to name some of the libraries' clients, got \`${flags.only}\``);
    const startedAt = new Date();
    const commands = parts.map((p) => compareArgs(p, flags, join(dir, p.name)));
    for (const args of commands) compare(args, flags.dryRun === true);
    if (flags.dryRun) return;
    const mergeArgs = ['compare', '--merge', ...parts.map((p) => join(dir, p.name)), '--out', merged];
    compare(mergeArgs, false);
    const facts = { startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), command: [...commands, mergeArgs].map(commandText).join(' && '), machine: machine(), root: projectRoot() };
    writeFileSync(join(dir, FACTS_FILE), `${JSON.stringify(facts, null, 2)}\n`);
  }
  const read = readJson<CompareReport>(join(merged, 'compare.json'));
  // The parts are different comparisons on purpose (libraries-matrix.ts); the merge's warning about that is not news here.
  const report = { ...read, warnings: read.warnings.filter((w) => !w.startsWith('the compare directories describe different comparisons')) };
  const facts = readJson<Omit<LibrariesRunFacts, 'regenerate' | 'versions'>>(join(dir, FACTS_FILE));
  // Facts written before `root` was recorded: the comparison ran in the project whose results/ holds it.
  const root = facts.root ?? (dir.includes('/results/') ? dir.slice(0, dir.indexOf('/results/')) : undefined);
  const doc = renderLibrariesMd(report, { ...facts, ...(root === undefined ? {} : { root }), regenerate: 'npm run libraries', versions: versionsOf(merged, report) });
  const out = resolve(projectRoot(), flags.doc);
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, doc);
  process.stdout.write(`wrote ${out} from ${merged}\n`);
}

function compareArgs(part: LibrariesPart, flags: Flags, out: string): string[] {
  return ['compare', '--lock-clients', part.clients.join(','), '--resources', part.resources.join(','), '--nemeses', part.nemeses.join(','), '--seeds', String(flags.seeds), '--time-limit', String(flags.timeLimit), '--out', out];
}

/** Runs `fencecheck ARGS` as a child; 0 valid, 1 a run invalid (expected: unfenced libraries lose data), 2 unknown are all results. */
function compare(args: string[], dryRun: boolean): void {
  process.stderr.write(`$ ${commandText(args)}\n`);
  const child = spawnSync(process.execPath, [compiledEntry('cli/main.js'), ...args, ...(dryRun ? ['--dry-run'] : [])], { stdio: 'inherit' });
  if (child.status === null || child.status > 2) {
    const out = args[args.indexOf('--out') + 1];
    throw new FencecheckError('libraries-compare', `\`${commandText(args)}\` exited ${child.status ?? child.signal}`, { hint: `Look at its output above; a comparison cut short resumes with: fencecheck compare --resume ${out}`, exitCode: EXIT.internal });
  }
}

/** Every version the runs recorded (servers, Node, and each client's libraries from its ready line). */
function versionsOf(dir: string, report: CompareReport): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const run of report.cells.flatMap((c) => c.runs)) {
    if (run.runDir === null) continue;
    const test = readTestJson(join(dir, run.runDir));
    const v = test?.['versions'];
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, value] of Object.entries(v as Record<string, unknown>)) if (typeof value === 'string' && !(k in versions)) versions[k] = value;
  }
  return versions;
}

function readJson<T>(file: string): T {
  if (!existsSync(file)) throw new UsageError(`Expected ${file} to exist`, 'Run the comparison first (npm run libraries), or name its directory with --from.');
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.versions.node}; shared with other jobs while it ran`;
}

/** The command as a person would type it from the project root (paths inside it relative). */
function commandText(args: readonly string[]): string {
  const root = projectRoot();
  const shown = args.map((w) => (isAbsolute(w) && w.startsWith(`${root}/`) ? relative(root, w) : w));
  return `fencecheck ${shown.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ')}`;
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}
