#!/usr/bin/env node
/**
 * `npm run libraries`: measure every reference lock client (libraries-matrix.ts)
 * with `fencecheck compare --lock-clients …`, one comparison per cluster, and
 * write docs/libraries.md from their merge. A maintainer's entry point beside
 * the CLI (as bench/ is), not a fencecheck command: it runs the real compare
 * command as a child (so the document quotes the exact commands that made it),
 * then merges and renders.
 *
 * Each cluster is its own part (DIR/<cluster>, with DIR/<cluster>/libraries-part.json:
 * when it ran, how long, the command), so a shared machine can run one cluster per
 * hold of its queue; every invocation then merges the parts present into DIR/merged
 * and renders the document from it (a part not run yet shows as not measured).
 *
 *   npm run libraries                                        # every cluster in turn, then the document (root; setup --node --go --java)
 *   npm run libraries -- --cluster redis --out DIR           # one cluster into DIR, then the document from DIR's parts
 *   npm run libraries -- --from DIR                          # only merge and render
 *   npm run libraries -- --cluster pg-advisory --out DIR --hunt 10   # and hunt the cells its runs left untested
 *   npm run libraries -- --cluster etcd --out DIR --until-ruled-out 10 --weigh-budget 3m   # and weigh each safe cell by a hunt
 *   npm run libraries -- --cluster etcd --only etcd-mutex --seeds 1 --doc /tmp/x.md   # a tiny matrix
 *   npm run libraries -- --parallel 2                         # two runs at once in each comparison, hunt and shrink (slots)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import type { CompareReport } from '../compare/compare-report.js';
import { LIBRARIES_PARTS, LIBRARIES_RUN_ARGS, type LibrariesPart } from '../compare/libraries-matrix.js';
import { renderLibrariesMd } from '../compare/render-libraries-md.js';
import { NOT_REPRODUCED, readShrinks, recordShrink, shrinkTargets } from './libraries-shrink.js';
import { huntTargets, readHunts, recordHunt, weighTargets, type HuntTarget } from './libraries-hunt.js';
import { durationFlag } from './hunt-flags.js';
import { compiledEntry, projectRoot } from '../../runtime/hosts/paths.js';
import { EXIT, FencecheckError, UsageError } from '../../core/errors.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { FLAG_RANGES, numberFlag, withRange } from './parse-options.js';
import { machine } from './machine-line.js';
import { runMaintainerEntry } from './maintainer-entry.js';
import { parseInRange } from '../../core/number-range.js';
import { RUN_RANGES } from '../../core/plan/run-options.js';

const PART_FACTS = 'libraries-part.json';

/** What one part's run recorded beside its comparison. */
export interface PartFacts {
  startedAt: string;
  durationMs: number;
  command: string;
  machine: string;
  root: string;
}

interface Flags {
  cluster?: string;
  seeds?: number;
  timeLimit?: number;
  only?: string;
  out?: string;
  doc: string;
  from?: string;
  dryRun?: boolean;
  shrink?: number;
  hunt?: number;
  untilRuledOut?: number;
  weighBudget?: string;
  parallel?: number;
}

/** A weighing hunt's budget unless --weigh-budget: about 20 tested tries on two slots (a 17 % weight; 5 % takes 59). */
const WEIGH_BUDGET = '3m';

const program = new Command()
  .name('npm run libraries --')
  .description(
    'Compare every reference lock client, one comparison per cluster (fencecheck compare --lock-clients), and write docs/libraries.md from their merge.',
  )
  .option('--cluster <names>', `only these clusters' parts: ${LIBRARIES_PARTS.map((p) => p.name).join(', ')}`)
  .option('--seeds <n>', withRange("runs per cell, instead of each part's own", FLAG_RANGES['--seeds']), numberFlag('--seeds'))
  .option('--time-limit <s>', withRange('seconds per run, instead of 12', RUN_RANGES.timeLimitS), parseInRange('--time-limit', RUN_RANGES.timeLimitS))
  .option('--only <clients>', 'only these clients (a tiny matrix to try the pipeline)')
  .option('--out <dir>', 'the directory of the comparisons (default results/compare/libraries-<timestamp>); an existing part resumes')
  .option('--doc <file>', 'the document to write', 'docs/libraries.md')
  .option('--from <dir>', 'do not run: merge the parts in this directory and render the document')
  .option('--dry-run', 'print the compare commands and their plans, run nothing')
  .option(
    '--shrink <n>',
    withRange("after each part, shrink its first n unsafe cells' first invalid run (fencecheck shrink, on the real cluster)", FLAG_RANGES['--shrink']),
    numberFlag('--shrink'),
  )
  .option(
    '--hunt <tries>',
    withRange(
      'after each part, hunt every cell its runs left untested, this many tries each (fencecheck hunt, on the real cluster)',
      FLAG_RANGES['--budget-runs'],
    ),
    numberFlag('--budget-runs'),
  )
  .option(
    '--until-ruled-out <percent>',
    withRange(
      'after each part, weigh every cell its runs found safe by a hunt of its own, until its tested tries rule out any failure showing in at least this share of tries or --weigh-budget ends (fencecheck hunt --until-ruled-out)',
      FLAG_RANGES['--until-ruled-out'],
    ),
    numberFlag('--until-ruled-out'),
  )
  .option(
    '--weigh-budget <duration>',
    `each weighing hunt's budget with --until-ruled-out (fencecheck hunt --budget): 3m, 150s; 1s..168h (default ${WEIGH_BUDGET})`,
    weighBudget,
  )
  .option(
    '--parallel <n>',
    withRange(
      "runs at once in each part's comparison and hunt, each on a cluster of its own (a slot; passed to fencecheck compare, hunt and shrink, whose defaults are a lane a backend and two a core, within what the machine affords)",
      FLAG_RANGES['--parallel'],
    ),
    numberFlag('--parallel'),
  )
  .exitOverride();

await runMaintainerEntry<Flags>(program, main);

function main(flags: Flags): void {
  if (flags.weighBudget !== undefined && flags.untilRuledOut === undefined)
    throw new UsageError(
      'Expected `--weigh-budget` with `--until-ruled-out`, got it alone',
      'Add --until-ruled-out P (weigh each safe cell by a hunt), or drop --weigh-budget.',
    );
  const dir = resolve(flags.from ?? flags.out ?? join('results', 'compare', `libraries-${stamp()}`));
  if (flags.from === undefined) {
    const parts = selectParts(flags);
    for (const part of parts) {
      runPart(part, flags, dir);
      if (!flags.dryRun) shrinkPart(join(dir, part.name), flags.shrink ?? 0, parallelArgs(flags));
      if (!flags.dryRun && flags.hunt !== undefined) huntPart(huntTargets(join(dir, part.name), flags.hunt), parallelArgs(flags));
      if (!flags.dryRun && flags.untilRuledOut !== undefined)
        huntPart(weighTargets(join(dir, part.name), flags.untilRuledOut, flags.weighBudget ?? WEIGH_BUDGET), parallelArgs(flags));
    }
    if (flags.dryRun) return;
  }
  const present = LIBRARIES_PARTS.filter((p) => existsSync(join(dir, p.name, PART_FACTS)));
  if (present.length === 0)
    throw new UsageError(`Expected a part of the libraries' comparison in ${dir}`, 'Run one first: npm run libraries -- --cluster redis --out DIR.');
  const merged = join(dir, 'merged');
  const mergeArgs = ['compare', '--merge', ...present.map((p) => join(dir, p.name)), '--out', merged];
  // A merge writes a fresh directory: the parts present now, not those of an earlier merge.
  rmSync(merged, { recursive: true, force: true });
  compare(mergeArgs, false);
  const read = readJson<CompareReport>(join(merged, 'compare.json'));
  // The parts are different comparisons on purpose (libraries-matrix.ts); the merge's warning about that is not news here.
  const report = { ...read, warnings: read.warnings.filter((w) => !w.startsWith('the compare directories describe different comparisons')) };
  // Each part's time from its comparison's own record, whichever code wrote its facts.
  const parts = present.map((p) => ({
    name: p.name,
    ...readJson<PartFacts>(join(dir, p.name, PART_FACTS)),
    ...runSpan(readJson<CompareReport>(join(dir, p.name, 'compare.json'))),
  }));
  const doc = renderLibrariesMd(report, {
    parts,
    merge: commandText(mergeArgs),
    regenerate: 'npm run libraries',
    versions: versionsOf(merged, report),
    root: parts[0]!.root,
    shrinks: present.flatMap((p) => readShrinks(join(dir, p.name))),
    hunts: present.flatMap((p) => readHunts(join(dir, p.name))),
    missing: LIBRARIES_PARTS.filter((p) => !present.includes(p)).map((p) => p.name),
  });
  const out = resolve(projectRoot(), flags.doc);
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, doc);
  process.stdout.write(`wrote ${out} from ${merged}\n`);
}

function selectParts(flags: Flags): LibrariesPart[] {
  const names = flags.cluster?.split(',').map((s) => s.trim());
  const unknown = names?.find((n) => !LIBRARIES_PARTS.some((p) => p.name === n));
  if (unknown !== undefined)
    throw new UsageError(`Expected \`--cluster\` to name parts among ${LIBRARIES_PARTS.map((p) => p.name).join(', ')}, got \`${unknown}\``);
  const only = flags.only?.split(',').map((s) => s.trim());
  const parts = LIBRARIES_PARTS.filter((p) => names === undefined || names.includes(p.name))
    .map((p) => ({ ...p, clients: p.clients.filter((c) => only === undefined || only.includes(c)) }))
    .filter((p) => p.clients.length > 0);
  if (parts.length === 0) throw new UsageError(`Expected \`--only\` to name some of the clients of the parts chosen, got \`${flags.only}\``);
  return parts;
}

/**
 * One cluster's comparison into DIR/<cluster>, and its facts beside it: when it ran and for how long, from
 * the comparison's own record (its first run's start to its last run's end), so a part resumed later
 * still reports what its runs cost.
 */
function runPart(part: LibrariesPart, flags: Flags, dir: string): void {
  const args = compareArgs(part, flags, join(dir, part.name));
  compare(args, flags.dryRun === true);
  if (flags.dryRun) return;
  const span = runSpan(readJson<CompareReport>(join(dir, part.name, 'compare.json')));
  const facts: PartFacts = { ...span, command: commandText(args), machine: machine(), root: projectRoot() };
  writeFileSync(join(dir, part.name, PART_FACTS), `${JSON.stringify(facts, null, 2)}\n`);
  process.stderr.write(`libraries: ${part.name}: its runs took ${Math.round(facts.durationMs / 1000)} s\n`);
}

/** From the first run's start to the last run's end (pure). */
function runSpan(report: Pick<CompareReport, 'cells'>): { startedAt: string; durationMs: number } {
  const runs = report.cells
    .flatMap((c) => c.runs)
    .flatMap((r) => (r.startedAt === null ? [] : [{ start: Date.parse(r.startedAt), end: Date.parse(r.startedAt) + (r.durationMs ?? 0) }]));
  if (runs.length === 0) return { startedAt: new Date().toISOString(), durationMs: 0 };
  const start = Math.min(...runs.map((r) => r.start));
  return { startedAt: new Date(start).toISOString(), durationMs: Math.max(...runs.map((r) => r.end)) - start };
}

/** Shrinks of the part's first n unsafe cells not shrunk yet; a shrink that did not reproduce (exit 2) is said and left out. */
function shrinkPart(partDir: string, n: number, parallel: string[]): void {
  for (const t of shrinkTargets(partDir, n)) {
    // Shrunk already (an earlier invocation): the cluster time is not spent twice.
    if (existsSync(join(t.dir, 'cell.json'))) continue;
    const started = Date.now();
    const status = fencecheck([...t.args, ...parallel]);
    if (status === 1) recordShrink(t.dir, t.cell, Date.now() - started);
    // 2: the run did not fail again often enough to shrink: an answer the document gives. Anything else (a signal, a bug) is retried on resume.
    else if (status === 2) recordShrink(t.dir, t.cell, Date.now() - started, NOT_REPRODUCED);
    else process.stderr.write(`libraries: ${t.cell} not shrunk (fencecheck shrink exited ${status ?? 'on a signal'})\n`);
  }
}

/** A hunt of each target (a cell the part's runs left untested, or one they found safe) not hunted yet; a hunt that ended on a signal or a bug is said and left out. */
function huntPart(targets: readonly HuntTarget[], parallel: string[]): void {
  for (const t of targets) {
    if (existsSync(join(t.dir, 'cell.json'))) continue;
    const started = Date.now();
    const status = fencecheck([...t.args, ...parallel]);
    // 0 none with evidence, 1 a violation, 2 unknown, 3 untested: every one an answer the document shows.
    if (status !== null && status <= 3) recordHunt(t.dir, t.facts, Date.now() - started);
    else process.stderr.write(`libraries: ${t.facts.library} / ${t.facts.resource} not hunted (fencecheck hunt exited ${status ?? 'on a signal'})\n`);
  }
}

/** --weigh-budget as the hunt's --budget takes it, checked here so a typo fails before any part runs; passed on as given. */
function weighBudget(text: string): string {
  durationFlag('--weigh-budget', 'Give a duration from 1s to 168h (a week), such as 3m, 150s or 1.5h, with no spaces.')(text);
  return text;
}

function compareArgs(part: LibrariesPart, flags: Flags, out: string): string[] {
  const run = LIBRARIES_RUN_ARGS.map((w, i) => (flags.timeLimit !== undefined && LIBRARIES_RUN_ARGS[i - 1] === '--time-limit' ? String(flags.timeLimit) : w));
  return [
    'compare',
    '--backends',
    part.name,
    '--lock-clients',
    part.clients.join(','),
    '--resources',
    part.resources.join(','),
    '--nemeses',
    part.nemeses.join(','),
    '--seeds',
    String(flags.seeds ?? part.seeds),
    ...run,
    ...(part.args ?? []),
    ...parallelArgs(flags),
    '--out',
    out,
  ];
}

/** `--parallel N` for a child compare, hunt or shrink, when given: their own defaults otherwise. */
function parallelArgs(flags: Flags): string[] {
  return flags.parallel !== undefined ? ['--parallel', String(flags.parallel)] : [];
}

/** Runs `fencecheck compare ARGS` as a child; 0 valid, 1 a run invalid (expected: unfenced libraries lose data), 2 unknown, 3 untested are all results. */
function compare(args: string[], dryRun: boolean): void {
  const status = fencecheck([...args, ...(dryRun ? ['--dry-run'] : [])]);
  if (status === null || status > 3) {
    const out = args[args.indexOf('--out') + 1];
    throw new FencecheckError('libraries-compare', `\`${commandText(args)}\` exited ${status ?? 'on a signal'}`, {
      hint: `Look at its output above; a comparison cut short resumes with: fencecheck compare --resume ${out}`,
      exitCode: EXIT.internal,
    });
  }
}

/** Runs `fencecheck ARGS` as a child, its output passed through; its exit status (null: a signal ended it). */
function fencecheck(args: string[]): number | null {
  process.stderr.write(`$ ${commandText(args)}\n`);
  return spawnSync(process.execPath, [compiledEntry('cli/main.js'), ...args], { stdio: 'inherit' }).status;
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

/** The command as a person would type it from the project root (paths inside it relative). */
function commandText(args: readonly string[]): string {
  const root = projectRoot();
  const shown = args.map((w) => (isAbsolute(w) && w.startsWith(`${root}/`) ? relative(root, w) : w));
  return `fencecheck ${shown.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ')}`;
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}
