/**
 * `fencecheck scenario`: the arguments of the Redlock debate as named,
 * scripted runs (src/scenarios/).
 *
 *   scenario list [--long]                     the scenarios, their variants and what the debate agrees on
 *   scenario run S3 [S5 …] [--variant L …]     run some scenarios (or one variant of one)
 *   scenario run --all [--seeds N]             every scenario: results/debate/<timestamp>/debate.html
 *
 * Exits 0 when every measured row agrees with the outcome the debate agrees
 * on (rows without one never fail), 1 when one differs, 2 when a run failed,
 * 3 when a row is undecided (untested: no seed showed the danger), 254 on bad
 * arguments, 255 when the tool failed.
 */
import { nonDefaultProvider, PROVIDERS, providerFlag, type ProviderName } from '../../core/plan/providers.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { assertCreatableDir, ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { oneLine } from '../../core/printable.js';
import { knownClientOf } from '../../runtime/runner/client-registry.js';
import { featureMissing, tokenKindExcludes } from '../../core/client-modes.js';
import { findScenario, SCENARIOS, selectVariants } from '../scenarios/catalogue.js';
import { planScenarioRuns, rowId, type ScenarioSelection } from '../scenarios/plan-scenario-runs.js';
import type { Scenario, ScenarioVariant } from '../scenarios/scenario.js';
import { variantNotRunnable } from '../scenarios/variant-options.js';
import type { DebateReport } from '../scenarios/debate-report.js';
import { FLAG_RANGES, numberFlag, oneOf, seedFlag, withRange } from './parse-options.js';
import { CLIENT_HELP, clientCommand } from './run-flags.js';
import { shellQuote } from '../../core/shell-quote.js';
import { assertPlanSize, seedRange } from '../compare/plan-bounds.js';
import { parallelLanes } from './parallel-flag.js';

interface RunFlags {
  all?: boolean;
  seeds: number;
  firstSeed: number;
  variant?: string[];
  out?: string;
  dryRun?: boolean;
  verbose?: boolean;
  client?: string;
  provider: ProviderName;
  parallel?: number;
}

export function registerScenarioCommand(program: Command): void {
  const cmd = program
    .command('scenario')
    .description('The arguments of the Redlock debate as named runs with scripted faults, and their verdicts side by side.');
  cmd
    .command('list')
    .description('List the scenarios, their variants and the outcome the debate agrees on.')
    .option('--long', 'also print each claim, both predictions, the setup and the recipe')
    .action((flags: { long?: boolean }) => {
      process.stdout.write(listText(SCENARIOS, flags.long === true));
    });
  cmd
    .command('run')
    .description('Run scenarios (one run per variant and seed, one at a time) and write debate.html and debate.md.')
    .argument('[ids...]', `scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}`)
    .option('--all', 'every scenario')
    .option('--seeds <n>', withRange('runs per variant, seeds first-seed, first-seed+1, …', FLAG_RANGES['--seeds']), numberFlag('--seeds'), 1)
    .option('--first-seed <n>', withRange('the first seed', FLAG_RANGES['--first-seed']), seedFlag('--first-seed'), 1)
    .option('--variant <labels...>', 'only these variants (with one scenario)')
    .option('--out <dir>', 'the debate directory (default results/debate/<timestamp>)')
    .option(
      '--parallel <n>',
      withRange('runs at once, each on a cluster of its own (a slot; default: one a core, within what the machine affords)', FLAG_RANGES['--parallel']),
      numberFlag('--parallel'),
    )
    .option('--dry-run', 'print the runs, run nothing')
    .option('--verbose', "also print each run's harness lines")
    .option('--client <command>', CLIENT_HELP, clientCommand)
    .option(
      '--provider <name>',
      `where the clusters run: ${PROVIDERS.join(' (root) or ')} (a Docker daemon; \`--harness auto|host|container\`: where fencecheck itself runs)`,
      oneOf('--provider', PROVIDERS),
      'namespaces',
    )
    .addHelpText(
      'after',
      `
Needs root (network namespaces), except with --dry-run or --provider containers.
Exit codes: 0 every measured row as the debate agrees, 1 one differs, 2 a run failed, 3 a row undecided
(no seed showed the danger: untested), 254 bad arguments, 255 the tool failed. Examples:
  sudo npx fencecheck scenario run S3
  sudo npx fencecheck scenario run S5 --variant redlock-npm --first-seed 4
  sudo npx fencecheck scenario run --all --seeds 3
See docs/debate.md for what each scenario shows.`,
    )
    .action(async (ids: string[], flags: RunFlags) => {
      const report = await run(ids, flags);
      if (report !== null) process.exitCode = report.exitCode;
    });
}

async function run(ids: string[], flags: RunFlags): Promise<DebateReport | null> {
  const { selection, excluded } = clientApplicable(select(ids, flags), flags.client);
  // Every printed replay parses back (its --first-seed is at most 2^53 - 1), and the plan is bounded before it is built.
  const seeds = seedRange(flags.firstSeed, flags.seeds);
  const variantCount = selection.reduce((n, s) => n + s.variants.length, 0);
  assertPlanSize(variantCount * seeds.length, `${variantCount} variants x ${seeds.length} seeds`);
  const outDir = resolve(flags.out ?? `results/debate/${stamp()}`);
  const planned = planScenarioRuns(selection, seeds, `${outDir}/runs`);
  // A foreign client runs in every run: its replay commands say so.
  const withClient = flags.client === undefined ? planned : planned.map((p) => ({ ...p, replay: `${p.replay} --client ${shellQuote([flags.client!])}` }));
  // Another provider than the default runs every run there too: the replay commands say so (namespaces, the default, adds nothing).
  const provider = nonDefaultProvider(flags.provider);
  const plan = provider ? withClient.map((p) => ({ ...p, replay: `${p.replay} ${providerFlag(provider).join(' ')}` })) : withClient;
  if (plan.length === 0) {
    const why = selection.flatMap(({ scenario, variants }) =>
      variants.map((v) => `${scenario.id}/${v.label}: ${variantNotRunnable(scenario, v) ?? 'nothing to run'}`),
    );
    throw new UsageError(`Expected at least one runnable variant, got none (${why.join('; ')})`, 'See `fencecheck scenario list` for what each variant runs.');
  }
  const parallel = parallelLanes(flags.parallel, flags.provider);
  // A dry run's plan is its output (`> plan.txt` must capture it); a real run's lines are progress, on stderr.
  const say = (line: string): void => void (flags.dryRun ? process.stdout : process.stderr).write(oneLine(line) + '\n');
  for (const line of excluded) say(line);
  say(`${plan.length} runs (${selection.map((s) => s.scenario.id).join(', ')}; seeds ${seeds.join(', ')}), about ${Math.ceil((plan.length * 18) / 60)} min`);
  for (const line of skippedLines(selection)) say(line);
  if (flags.dryRun) {
    assertCreatableDir(outDir, '`--out`');
    for (const p of plan) say(`  ${rowId(p.owner)} seed ${p.seed}${p.rows.length > 1 ? ` (also ${p.rows.slice(1).map(rowId).join(', ')})` : ''}: ${p.replay}`);
    return null;
  }
  // Made and proved writable before the first run starts a cluster.
  ensureWritableDir(outDir, '`--out`');
  say(`debate directory: ${outDir}; ${parallel.said}`);
  if (flags.client !== undefined) say(`client: ${flags.client}`);
  // Loaded here, not at the top: list and --dry-run need neither the cluster nor the client libraries.
  const { runLockTest } = await import('../run/run-lock-test.js');
  const { writeRunReport } = await import('../report/write-run-report.js');
  const { clusterLockHeld } = await import('../../runtime/cluster/cluster-lock.js');
  const { runScenarios } = await import('../scenarios/run-scenarios.js');
  // One warm cluster a lane for all the runs, reset and clean-checked between them (a run needing another backend
  // starts it fresh). One lane runs in slot 0 as always; several each take a free slot.
  const pools = (await import('../../runtime/runner/warm-pool.js')).warmPoolsFor(parallel.lanes);
  const report = await runScenarios(outDir, selection, seeds, plan, {
    lanes: parallel.lanes,
    // A foreign client replaces the built-in one in every run; the variant's backend names the cluster.
    runOne: (o, hooks, lane) =>
      runLockTest(
        {
          ...o,
          ...(flags.client !== undefined ? { client: flags.client } : {}),
          ...(provider ? { provider } : {}),
        },
        { ...hooks, warm: pools[lane]! },
      ),
    writeReport: writeRunReport,
    // A pool's own cluster holds its slot's lock: that is not another process's. Several lanes choose free slots, waiting there.
    clusterBusy: async () => parallel.lanes === 1 && !pools[0]!.holding && (await clusterLockHeld()),
    say,
    verbose: flags.verbose === true,
    now: Date.now,
  }).finally(() => Promise.all(pools.map((p) => p.close())));
  process.stdout.write(resultText(report, outDir));
  return report;
}

function select(ids: string[], flags: RunFlags): ScenarioSelection[] {
  if (flags.all && ids.length > 0) throw new UsageError(`Expected scenario ids or \`--all\`, got both (${ids.join(', ')})`);
  if (!flags.all && ids.length === 0)
    throw new UsageError('Expected scenario ids (e.g. S3) or `--all`, got neither', 'List them with `fencecheck scenario list`.');
  const scenarios = flags.all ? [...SCENARIOS] : [...new Set(ids.map((id) => findScenario(id)))];
  if (flags.variant !== undefined && scenarios.length !== 1) throw new UsageError(`Expected \`--variant\` with exactly one scenario, got ${scenarios.length}`);
  // `--client` replaces every variant's client, so a reference client a variant names need not be built.
  const withClient = (v: ScenarioVariant): ScenarioVariant => (flags.client === undefined ? v : withoutRequires(v));
  const selection = scenarios.map((scenario) => ({ scenario, variants: selectVariants(scenario, flags.variant ?? []).map(withClient) }));
  // A variant named on the command line that cannot run is a mistake to say, not a silent "0 runs".
  for (const { scenario, variants } of flags.variant === undefined ? [] : selection) {
    for (const v of variants) {
      const why = variantNotRunnable(scenario, v);
      if (why !== undefined)
        throw new UsageError(
          `Expected \`--variant\` to name a variant that runs, got \`${v.label}\` of ${scenario.id}, which is ${why}`,
          `Runnable variants of ${scenario.id}: ${
            scenario.variants
              .filter((x) => variantNotRunnable(scenario, x) === undefined)
              .map((x) => x.label)
              .join(', ') || 'none'
          }.`,
        );
    }
  }
  return selection;
}

/** The variants a run would leave out, each with why (a reference client not built names the command that builds it). */
export function skippedLines(selection: readonly ScenarioSelection[], exists: (path: string) => boolean = existsSync): string[] {
  const lines: string[] = [];
  for (const { scenario, variants } of selection) {
    for (const v of variants) {
      const why = variantNotRunnable(scenario, v, exists);
      if (why !== undefined) lines.push(`  skipped ${scenario.id}/${v.label}: ${why}`);
    }
  }
  return lines;
}

/**
 * With --client naming a client whose token kind fencecheck knows, the variants its tokens cannot serve
 * (a fence needs a monotonic token) are not applicable: said and left out, the rest run. A client whose
 * kind only its ready line says is refused run by run (ClientNotApplicableError), and the rest run too.
 */
function clientApplicable(selection: ScenarioSelection[], client: string | undefined): { selection: ScenarioSelection[]; excluded: string[] } {
  const known = client === undefined ? undefined : knownClientOf(client);
  if (known === undefined) return { selection, excluded: [] };
  const excluded: string[] = [];
  const kept = selection.map(({ scenario, variants }) => ({
    scenario,
    variants: variants.filter((v) => {
      const why = tokenKindExcludes(known, v.options.resource) ?? featureMissing(known, v.options.resource);
      if (why !== undefined) excluded.push(`${scenario.id}/${v.label}: not applicable with this client, which ${why}`);
      return why === undefined;
    }),
  }));
  return { selection: kept, excluded };
}

function withoutRequires({ requires: _requires, ...variant }: ScenarioVariant): ScenarioVariant {
  return variant;
}

export function listText(scenarios: readonly Scenario[], long: boolean): string {
  const lines: string[] = [];
  for (const s of scenarios) {
    lines.push(`${s.id.padEnd(4)} ${s.title}${s.notReproduced === undefined ? '' : ' [not reproduced]'}`);
    if (long) {
      for (const [k, v] of [
        ['claim', s.claim],
        ['Kleppmann', s.predictions.kleppmann],
        ['antirez', s.predictions.antirez],
        ['setup', s.setup],
        ['recipe', s.recipe],
      ] as const)
        lines.push(`       ${k}: ${v}`);
      if (s.notReproduced !== undefined) lines.push(`       not reproduced: ${s.notReproduced}`);
    }
    for (const v of s.variants) lines.push(`       ${v.label.padEnd(24)} ${variantLine(s, v)}`);
  }
  return lines.join('\n') + '\n';
}

function variantLine(s: Scenario, v: ScenarioVariant): string {
  const why = variantNotRunnable(s, v);
  if (why !== undefined && s.notReproduced === undefined) return why;
  const e = v.expected;
  const agreed = e === undefined ? 'disputed' : [e.lock ? `lock ${e.lock}` : '', e.data ? `data ${e.data}` : ''].filter((x) => x !== '').join(', ');
  return `${v.text} · expected: ${agreed}`;
}

function resultText(report: DebateReport, outDir: string): string {
  const lines = [report.headline];
  for (const s of report.scenarios) {
    for (const r of s.rows) {
      const mark = { 'as-expected': 'ok  ', differs: 'DIFF', undecided: '??  ', 'no-expectation': '    ' }[r.match];
      lines.push(`${mark} ${`${s.id}/${r.label}`.padEnd(30)} ${r.verdict}`);
    }
  }
  lines.push(`debate: ${outDir}/debate.html`, `        ${outDir}/debate.md`);
  return lines.map(oneLine).join('\n') + '\n';
}

/** `20261129T120000`, as run directories are named. */
function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}
