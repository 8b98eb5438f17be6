#!/usr/bin/env node
/**
 * `npm run libraries`: measure the npm lock libraries (libraries-matrix.ts) with
 * `fencecheck compare --lock-clients …` and write docs/libraries.md from its
 * compare.json. A maintainer's entry point beside the CLI (as bench/ is), not a
 * fencecheck command: it runs the real compare command as a child (so the
 * document quotes the exact command that made it), then renders.
 *
 *   npm run libraries                            # the whole matrix, 2 seeds (needs root and the npm clients: setup --node)
 *   npm run libraries -- --from DIR              # only re-render docs/libraries.md from a finished comparison
 *   npm run libraries -- --seeds 1 --nemeses client-pause --lock-clients simple-redis-mutex --doc /tmp/x.md   # a tiny matrix
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import type { CompareReport } from '../compare/compare-report.js';
import { LIBRARIES, LIBRARY_NEMESES, LIBRARY_RESOURCES } from '../compare/libraries-matrix.js';
import { renderLibrariesMd, type LibrariesRunFacts } from '../compare/render-libraries-md.js';
import { compiledEntry, projectRoot } from '../cluster/paths.js';
import { EXIT, FencecheckError, formatError, UsageError } from '../errors.js';
import { readTestJson } from '../store/test-json.js';
import { positiveInteger } from './parse-options.js';

const FACTS_FILE = 'libraries-run.json';

interface Flags {
  seeds: number;
  timeLimit: number;
  nemeses: string;
  lockClients: string;
  out?: string;
  doc: string;
  from?: string;
  dryRun?: boolean;
}

const program = new Command()
  .name('npm run libraries --')
  .description('Compare the npm lock libraries (fencecheck compare --lock-clients) and write docs/libraries.md from the result.')
  .option('--seeds <n>', 'runs per cell', positiveInteger('--seeds'), 2)
  .option('--time-limit <s>', 'seconds per run', positiveInteger('--time-limit'), 15)
  .option('--nemeses <list>', 'the fault columns', LIBRARY_NEMESES.join(','))
  .option('--lock-clients <list>', 'the clients (rows)', LIBRARIES.map((l) => l.client).join(','))
  .option('--out <dir>', 'the compare directory (default results/compare/libraries-<timestamp>)')
  .option('--doc <file>', 'the document to write', 'docs/libraries.md')
  .option('--from <dir>', 'do not run: render the document from this finished comparison')
  .option('--dry-run', "print the compare command and its plan, run nothing")
  .exitOverride();

try {
  program.parse(process.argv);
  await main(program.opts<Flags>());
} catch (err) {
  // Commander has printed its own message (or the help); ours get their hint. Anything else is a bug: let it show.
  if (err instanceof CommanderError) process.exitCode = err.exitCode === 0 ? 0 : EXIT.badInput;
  else if (err instanceof FencecheckError) {
    process.stderr.write(`${formatError(err)}\n`);
    process.exitCode = err.exitCode;
  } else throw err;
}

async function main(flags: Flags): Promise<void> {
  const dir = resolve(flags.from ?? flags.out ?? join('results', 'compare', `libraries-${stamp()}`));
  if (flags.from === undefined) {
    const args = ['compare', '--lock-clients', flags.lockClients, '--resources', LIBRARY_RESOURCES.join(','), '--nemeses', flags.nemeses, '--seeds', String(flags.seeds), '--time-limit', String(flags.timeLimit), '--out', dir];
    const command = `fencecheck ${args.map(quote).join(' ')}`;
    process.stderr.write(`$ ${command}\n`);
    const startedAt = new Date();
    const child = spawnSync(process.execPath, [compiledEntry('cli/main.js'), ...args, ...(flags.dryRun ? ['--dry-run'] : [])], { stdio: 'inherit' });
    if (flags.dryRun) return;
    // 0 valid, 1 some run invalid (expected: unfenced libraries lose data), 2 unknown; anything else the comparison itself failed.
    if (child.status === null || child.status > 2) throw new FencecheckError('libraries-compare', `the comparison exited ${child.status ?? child.signal}`, { hint: `Resume it: fencecheck compare --resume ${dir}`, exitCode: EXIT.internal });
    const facts = { startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), command, machine: machine() };
    writeFileSync(join(dir, FACTS_FILE), `${JSON.stringify(facts, null, 2)}\n`);
  }
  const report = readJson<CompareReport>(join(dir, 'compare.json'));
  const facts = readJson<Omit<LibrariesRunFacts, 'regenerate' | 'versions'>>(join(dir, FACTS_FILE));
  const doc = renderLibrariesMd(report, { ...facts, regenerate: 'npm run libraries', versions: versionsOf(dir, report) });
  const out = resolve(projectRoot(), flags.doc);
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, doc);
  process.stdout.write(`wrote ${out} from ${dir}\n`);
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

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}
