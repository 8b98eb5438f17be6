/**
 * `fencecheck compare`: run the matrix backends x resources x nemeses x seeds
 * (or one shard of it), or resume one, or merge the directories of many
 * machines; write compare.html, compare.json, junit.xml and summary.md.
 * Exits 0/1 by --expect when given, else 0 valid, 1 any run invalid, 2 any
 * unknown or missing; 3 instead of 0 when an untested cell is passed over (no
 * expectation names it); 254 bad arguments, 255 the tool failed.
 */
import { parallelLanes } from './parallel-flag.js';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { LockWorkload } from '../../core/checkers/lock/verdict.js';
import { assertOptionsApply, DEFAULTS, runOptionNotes } from '../../core/plan/run-options.js';
import { planRun } from '../../core/plan/run-plan.js';
import type { CompareReport } from '../compare/compare-report.js';
import { lockRows, matrixCells, nemesisAims, parseNemesisLabel, planRuns, runOptionsFor, type CompareSpec } from '../compare/compare-spec.js';
import { NAMED_CLIENTS, parseClientList, type ClientChoice } from '../../runtime/runner/client-registry.js';
import { readExpectations, type Expectation } from '../compare/expectations.js';
import { assertExpectationsMatch } from '../compare/evaluate-expectations.js';
import { assertPlanSize, seedRange } from '../compare/plan-bounds.js';
import type { Manifest } from '../compare/manifest.js';
import { mergeCompare } from '../compare/merge-compare.js';
import { openCompareDir, resumeCompareDir } from '../compare/open-compare-dir.js';
import { planText } from '../compare/plan-text.js';
import { runCompare } from '../compare/run-compare.js';
import { inShard, parseShard, type Shard } from '../compare/shard.js';
import { UsageError } from '../../core/errors.js';
import { assertCreatableDir, ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { oneLine } from '../../core/printable.js';
import { FLAG_RANGES, numberFlag, oneOf, seedFlag, withRange } from './parse-options.js';
import { addRunFlags, runFlagAttributes, sharedRunOptions } from './run-flags.js';
import { LOCK_BACKENDS, notApplicableWithoutLock, RESOURCE_MODES, type LockBackend, type ResourceMode, WORKLOADS } from '../../core/vocabulary.js';
import { workloadOf } from '../../core/workloads/registry.js';

/** Flags that define the matrix: refused with --resume, whose manifest already says. */
const MATRIX_FLAGS = ['backends', 'lockClients', 'resources', 'nemeses', 'seeds', 'firstSeed', 'workload', 'shard'];

interface CompareFlags {
  parallel?: number;
  backends: LockBackend[];
  lockClients?: ClientChoice[];
  resources: ResourceMode[];
  nemeses: string[];
  seeds: number;
  firstSeed: number;
  workload: LockWorkload;
  out?: string;
  resume?: string;
  merge?: string[];
  shard?: Shard;
  expect?: string;
  dryRun?: boolean;
  verbose?: boolean;
  [runFlag: string]: unknown;
}

export function registerCompareCommand(program: Command): void {
  const cmd = program
    .command('compare')
    .description(
      'Run the matrix backends x resources x nemeses x seeds (or a shard of it), resume it, or merge many; write an HTML matrix, JSON, JUnit and Markdown.',
    )
    .option('--backends <list>', `lock services: ${LOCK_BACKENDS.join(', ')}`, listOf('--backends', LOCK_BACKENDS), ['redis', 'redlock', 'etcd', 'zookeeper'])
    .option(
      '--lock-clients <list>',
      `lock clients, a dimension of the matrix: builtin, ${NAMED_CLIENTS.map((c) => c.name).join(', ')}, or command lines (each runs on the backends it supports)`,
      (text: string) => parseClientList(text),
    )
    .option('--resources <list>', `resource modes: ${RESOURCE_MODES.join(', ')}`, listOf('--resources', RESOURCE_MODES), ['none', 'fence', 'fence-claim'])
    .option(
      '--nemeses <list>',
      'matrix columns: none, a fault, or faults joined by + (partition+kill); fault@event aims it at a lock event (client-pause@holder-read: a holder paused between its read and its write; events: docs/hunt.md)',
      nemesisList,
      ['client-pause', 'server-pause', 'partition', 'kill', 'clock'],
    )
    .option('--seeds <n>', withRange('runs per cell, with seeds first-seed, first-seed+1, …', FLAG_RANGES['--seeds']), numberFlag('--seeds'), 1)
    .option('--first-seed <n>', withRange('the first seed', FLAG_RANGES['--first-seed']), seedFlag('--first-seed'), DEFAULTS.seed)
    .option('--workload <name>', `workload: ${WORKLOADS.join(', ')}`, oneOf('--workload', WORKLOADS), 'lock-counter');
  addRunFlags(cmd);
  cmd
    .option('--out <dir>', 'the compare directory (default results/compare/<timestamp>); an existing one of the same comparison resumes')
    .option('--resume <dir>', 'resume the comparison in DIR, skipping finished runs')
    .option('--merge <dirs...>', 'build one matrix from compare directories, run directories, or folders of them')
    .option('--shard <i/N>', 'run only runs k with k mod N = i-1 of the whole run list', parseShard)
    .option('--expect <file>', 'expectations (JSON, docs/ci.md): exit 0 when all are met, 1 otherwise')
    .option(
      '--parallel <n>',
      withRange(
        'runs at once, each on a cluster of its own (a slot; default: a lane a backend, at least one a core, within what the machine affords)',
        FLAG_RANGES['--parallel'],
      ),
      numberFlag('--parallel'),
    )
    .option('--dry-run', 'print the plan and the runs, run nothing')
    .option('--verbose', "also print each run's harness lines")
    .addHelpText(
      'after',
      `
Needs root to run (not to --merge or --dry-run). Runs go on --parallel lanes (by default a lane a backend, as
far as the machine affords), each lane keeping one backend's warm cluster, reset and clean-checked between runs
(docs/cluster.md, Warm clusters). Examples:
  fencecheck compare --backends redis,etcd --resources none,fence --nemeses client-pause,partition --seeds 3 --time-limit 30
  fencecheck compare --lock-clients builtin,redis-semaphore,etcd3-lock --resources none,cas-unique --nemeses client-pause
  fencecheck compare --resume results/compare/20261129T120000
  fencecheck compare --shard 2/4 --out results/compare/shard-2 --seeds 2
  fencecheck compare --merge artifacts/ --out results/compare/merged --expect expectations.json
Exit codes: with --expect 0 all met, 1 one unmet; without, 0 all valid, 1 a run invalid, 2 one unknown,
failed or missing; 3 instead of 0 when a cell is untested (and no expectation names it); 254 bad arguments
or input (an --expect that is empty or names no cell, a results.json that disagrees with its history, a plan
of more than 100,000 runs); 255 the tool failed.
See docs/ci.md for the expectations format and a GitHub Actions workflow.`,
    )
    .action(async (flags: CompareFlags) => {
      const expectations = flags.expect === undefined ? null : { list: readExpectations(flags.expect), file: flags.expect };
      const report = flags.merge !== undefined ? merge(flags, expectations) : await run(cmd, flags, expectations);
      if (report !== null) process.exitCode = report.exitCode;
    });
}

interface ExpectFile {
  list: Expectation[];
  file: string;
}

function merge(flags: CompareFlags, expectations: ExpectFile | null): CompareReport {
  if (flags.resume !== undefined || flags.shard !== undefined || flags.dryRun)
    throw new UsageError('Expected `--merge` without --resume, --shard or --dry-run');
  const out = resolve(flags.out ?? `results/compare/merged-${stamp()}`);
  assertDirectoryOrAbsent(out);
  ensureWritableDir(out, '`--out`');
  const merged = mergeCompare(flags.merge!, out, expectations, new Date().toISOString());
  process.stderr.write(`merged ${merged.compareDirs} compare directories and ${merged.runDirs} run directories\n`);
  printReport(merged.report, merged.html, null);
  return merged.report;
}

async function run(cmd: Command, flags: CompareFlags, expect: ExpectFile | null): Promise<CompareReport | null> {
  let dir: string;
  let manifest: Manifest;
  if (flags.resume !== undefined) {
    const given = [...MATRIX_FLAGS, ...runFlagAttributes(), 'out'].filter((k) => cmd.getOptionValueSource(k) === 'cli');
    if (given.length > 0)
      throw new UsageError(
        `Expected \`--resume\` alone (its manifest holds the matrix and options), got also --${given.map(kebab).join(', --')}`,
        'Drop the other flags; only --expect, --verbose, --parallel and --dry-run go with --resume.',
      );
    dir = resolve(flags.resume);
    manifest = resumeCompareDir(dir);
  } else {
    const spec = specFrom(flags, cmd.getOptionValueSource('backends') === 'cli');
    dir = resolve(flags.out ?? `results/compare/${stamp()}`);
    assertDirectoryOrAbsent(dir);
    // Made and proved writable before any run (a dry run makes nothing: it only checks the way there).
    if (flags.dryRun) assertCreatableDir(dir, '`--out`');
    else ensureWritableDir(dir, '`--out`');
    manifest = openCompareDir(dir, spec, flags.shard ?? null, new Date().toISOString());
  }
  // Before any run: expectations that name no cell would check nothing after hours of runs.
  const cells = matrixCells(lockRows(manifest.spec), manifest.spec.resources, manifest.spec.nemeses);
  if (expect !== null) assertExpectationsMatch(expect.list, cells, expect.file);
  const expectations = expect?.list ?? null;
  // A lane a backend (each keeps its warm cluster for all its runs), as far as the machine affords.
  const backendOf = new Map(cells.map((c) => [c.id, c.backend]));
  const backends = new Set(
    planRuns(manifest.spec)
      .filter((r) => inShard(r.index, manifest.shard))
      .map((r) => backendOf.get(r.cellId)),
  );
  const parallel = parallelLanes(flags.parallel, manifest.spec.run.provider, undefined, backends.size);
  // A dry run's plan is its output (`> plan.txt` must capture it); a real run's is progress, on stderr.
  (flags.dryRun ? process.stdout : process.stderr).write(`${planText(manifest, { listRuns: flags.dryRun === true, lanes: parallel.lanes })}\n`);
  if (flags.dryRun) return null;
  process.stderr.write(`compare directory: ${dir}; ${parallel.said}\n`);
  // Loaded here, not at the top: --merge and --dry-run need neither the cluster nor the client libraries.
  const { runLockTest } = await import('../run/run-lock-test.js');
  const { writeRunReport } = await import('../report/write-run-report.js');
  const { clusterLockHeld } = await import('../../runtime/cluster/cluster-lock.js');
  // One warm cluster a lane for the whole comparison: reset and clean-checked between runs, torn down at the end.
  // One lane runs in slot 0 as always; several each take a free slot.
  const pools = (await import('../../runtime/runner/warm-pool.js')).warmPoolsFor(parallel.lanes);
  const report = await runCompare(dir, manifest, expectations, {
    runOne: (o, hooks, lane) => runLockTest(o, { ...hooks, warm: pools[lane]! }),
    lanes: parallel.lanes,
    // A pool's own cluster holds its slot's lock: that is not another process's. Several lanes choose free slots, waiting there.
    clusterBusy: async () => parallel.lanes === 1 && !pools[0]!.holding && (await clusterLockHeld()),
    writeReport: writeRunReport,
    io: { write: (t) => process.stderr.write(t), live: process.stderr.isTTY === true, now: Date.now },
    verbose: flags.verbose === true,
  }).finally(() => Promise.all(pools.map((p) => p.close())));
  printReport(report, `${dir}/compare.html`, dir);
  return report;
}

function specFrom(flags: CompareFlags, backendsGiven: boolean): CompareSpec {
  const seeds = seedRange(flags.firstSeed, flags.seeds);
  const shared = sharedRunOptions(flags);
  const clients = flags.lockClients;
  if (clients !== undefined && shared.client !== undefined)
    throw new UsageError(
      'Expected `--client` or `--lock-clients`, not both',
      "Put the command line in the list: --lock-clients builtin,'/usr/bin/python3 my_client.py'.",
    );
  const spec: CompareSpec = {
    backends: clients === undefined ? flags.backends : backendsFor(clients, flags.backends, backendsGiven),
    resources: flags.resources,
    nemeses: flags.nemeses,
    seeds,
    workload: flags.workload,
    run: shared,
    ...(clients !== undefined ? { clients } : {}),
  };
  const writeAimed = !workloadOf(spec.workload).accessesResource ? spec.nemeses.find((n) => Object.values(nemesisAims(n)).includes('write')) : undefined;
  if (writeAimed !== undefined)
    throw new UsageError(
      `Cannot compare this matrix: the column \`${writeAimed}\` waits for a write, and the mutex workload writes nothing.`,
      'Aim it at holder-read, or compare --workload lock-counter.',
    );
  const cells = matrixCells(lockRows(spec), spec.resources, spec.nemeses).filter((c) => c.notApplicable === null);
  assertPlanSize(cells.length * seeds.length, `${cells.length} cells x ${seeds.length} seeds`);
  // Every cell is planned as its run will plan it (planRun validates the options, aims the faults): a dry run
  // approves only what the runs accept, with the runs' own messages.
  for (const cell of cells) planRun(runOptionsFor(spec, cell, seeds[0]!, '.'));
  // As run says it: options no backend of the matrix reads are refused, a raised client pause is said.
  assertOptionsApply(shared, spec.backends);
  for (const note of runOptionNotes(
    shared,
    spec.nemeses.flatMap((n) => n.split('+')),
  ))
    process.stderr.write(`warning: ${note}\n`);
  // A whole row that cannot run with this workload (no lock: lock-counter only) is refused before any run.
  const withoutLock = spec.backends.includes('none') ? notApplicableWithoutLock('none', spec.workload) : undefined;
  if (withoutLock) throw new UsageError(`Cannot compare this matrix: ${withoutLock}.`, 'Drop none from --backends, or compare --workload lock-counter.');
  return spec;
}

/**
 * The backends of a comparison over --lock-clients: those given with --backends (each named client
 * must run on one of them), else every backend some client runs on (a command line or builtin: the
 * default backends), in the usual order.
 */
function backendsFor(clients: readonly ClientChoice[], given: LockBackend[], backendsGiven: boolean): LockBackend[] {
  if (backendsGiven) {
    for (const c of clients) {
      if (c.backends !== null && !c.backends.some((b) => given.includes(b))) {
        throw new UsageError(
          `Expected \`--backends\` to include a backend of the client ${c.name} (${c.backends.join(', ')}), got \`${given.join(',')}\``,
          `Add ${c.backends[0]} to --backends, or leave --backends out to use each client's own.`,
        );
      }
    }
    return given;
  }
  const wanted = new Set(clients.flatMap((c) => c.backends ?? given));
  return LOCK_BACKENDS.filter((b) => wanted.has(b));
}

function printReport(report: CompareReport, html: string, dir: string | null): void {
  // Cell ids, warnings and expectations quote run directories and the --expect file: one line each.
  for (const w of report.warnings) process.stderr.write(`warning: ${oneLine(w)}\n`);
  const lines = [report.headline];
  for (const e of report.expectations ?? []) {
    if (e.matchedNoCell) lines.push(`unmet: #${e.index} ${e.text}: names no cell of the matrix`);
    for (const u of e.unmet) lines.push(`unmet: #${e.index} ${e.text}: ${u.cellId}: ${u.reason}`);
  }
  lines.push(`matrix: ${html}`);
  if (dir !== null && report.totals.missing > 0) lines.push(`resume: fencecheck compare --resume ${dir}`);
  process.stdout.write(lines.map(oneLine).join('\n') + '\n');
}

function listOf<T extends string>(flag: string, choices: readonly T[]) {
  const one = oneOf(flag, choices);
  return (text: string): T[] => [...new Set(text.split(',').map((s) => one(s.trim())))];
}

function nemesisList(text: string): string[] {
  const labels = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  for (const l of labels) parseNemesisLabel(l);
  if (labels.length === 0) throw new UsageError(`Expected \`--nemeses\` to list at least one column (none, or faults), got \`${text}\``);
  return labels;
}

/** `--out` names a directory to create or reuse; an existing file there is a mistake, not something to write into. */
function assertDirectoryOrAbsent(path: string): void {
  let info;
  try {
    info = statSync(path);
  } catch {
    return;
  }
  if (!info.isDirectory())
    throw new UsageError(`Expected \`--out\` to name a directory (new or a compare directory), got \`${path}\`, which is a file`, 'Pick another --out.');
}

function kebab(attr: string): string {
  return attr.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** `20261129T120000`, as run directories are named. */
function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}
