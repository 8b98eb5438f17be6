/**
 * `fencecheck run`: one lock run against real servers under faults, checked.
 * Prints progress, one verdict line per checker, the run directory and the
 * exact replay command; exits 0 safe, 1 invalid, 2 unknown, 3 untested
 * (valid, but no evidence the danger occurred), 254 bad arguments, 255 when
 * the tool itself failed.
 */
import type { Command } from 'commander';
import { EXIT } from '../../core/errors.js';
import { formatStoredOutcome } from '../check/format-outcome.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { outcomeExitCode } from '../../core/run-files/stored-outcome.js';
import { assertOptionsApply, DEFAULTS, runOptionNotes, unknownFault, validateRunOptions, type RunOptions } from '../../core/plan/run-options.js';
import type { FaultKind } from '../../core/generator/faults/registry.js';
import { FLAG_RANGES, numberFlag, oneOf, seedFlag, withRange } from './parse-options.js';
import { addRunFlags, sharedRunOptions } from './run-flags.js';
import { addScriptFlags, scriptOptions } from './script-flags.js';
import { formatVerdicts } from '../check/format-lock-verdicts.js';
import { ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { planText } from '../../core/run-files/plan-json.js';
import { aimedScript, planRun } from '../../core/plan/run-plan.js';
import { splitAim, type Aims } from '../../core/generator/aimed-schedule.js';
import { aimsNotApplicable } from '../compare/compare-spec.js';
import { UsageError } from '../../core/errors.js';
import { oneLine } from '../../core/printable.js';
import { LOCK_BACKENDS, RESOURCE_MODES, SCHEDULED_FAULT_KINDS, WORKLOADS } from '../../core/vocabulary.js';
import { QUEUE_FAULTS, QUEUE_SERVERS } from '../../core/queue/queue-options.js';
import { QUEUE_MODES } from '../../core/queue/queue-libraries.js';
import { refuseQueueOnly, runQueueCommand } from './run-queue-command.js';
import type { CliFlags } from './cli-flags.js';

/** What --backend, --resource and --workload take: the lock run's, and a queue run's (run-queue-command.ts). */
const RUN_BACKENDS = [...LOCK_BACKENDS, ...QUEUE_SERVERS.filter((b) => !(LOCK_BACKENDS as readonly string[]).includes(b))] as readonly string[];
const RUN_RESOURCES = [...RESOURCE_MODES, ...QUEUE_MODES.filter((m) => !(RESOURCE_MODES as readonly string[]).includes(m))] as readonly string[];
const RUN_WORKLOADS = [...WORKLOADS, 'queue'] as readonly string[];

export function registerRunCommand(program: Command): void {
  const cmd = program
    .command('run')
    .description('Run a lock workload against a real cluster under faults, record the history and check it.')
    .requiredOption(
      '--backend <name>',
      `lock service: ${LOCK_BACKENDS.join(', ')}; with --workload queue the queue's server: ${QUEUE_SERVERS.join(', ')}`,
      oneOf('--backend', RUN_BACKENDS),
    )
    .option(
      '--resource <mode>',
      `protected resource mode: ${RESOURCE_MODES.join(', ')}; with --workload queue: ${QUEUE_MODES.join(', ')}`,
      oneOf('--resource', RUN_RESOURCES),
      'none',
    )
    .option(
      '--workload <name>',
      `workload: ${WORKLOADS.join(', ')}, or queue (a job queue's workers: docs/queues.md)`,
      oneOf('--workload', RUN_WORKLOADS),
      'lock-counter',
    )
    .option(
      '--nemesis <list>',
      `faults, comma-separated: ${SCHEDULED_FAULT_KINDS.join(', ')}; fault@event aims it at a lock event (client-pause@holder-read: a holder paused between its read and its write; events: docs/hunt.md) (the delay: \`fencecheck scenario\`, or a --script)`,
      faultList,
      [],
    );
  addScriptFlags(addRunFlags(cmd))
    .option('--seed <n>', withRange('seed of the workload and nemesis schedules', FLAG_RANGES['--seed']), seedFlag('--seed'), DEFAULTS.seed)
    .option('--results <dir>', 'where run directories go', DEFAULTS.resultsDir)
    .option('--plan', "print the plan (options, phases, fault windows, every client's sections) as JSON and exit: nothing runs, no root needed")
    .option(
      '--busy-timeout-ms <ms>',
      withRange('wait up to N ms for another fencecheck cluster on this machine to end', FLAG_RANGES['--busy-timeout-ms']),
      numberFlag('--busy-timeout-ms'),
      0,
    )
    .addHelpText(
      'after',
      `
Writes results/<backend>-<resource>-<workload>/<timestamp>/ (test.json, plan.json, history.jsonl, results.json, logs/).
--plan prints what plan.json would hold and runs nothing.
Exit codes: 0 safe, 1 invalid, 2 unknown, 3 untested (valid, but no fault struck or the lock never failed),
254 bad arguments, 255 the tool failed.
Needs root (network namespaces). Examples:
  fencecheck run --backend redis --resource none --workload lock-counter --nemesis client-pause --time-limit 60 --seed 1
  fencecheck run --backend etcd --resource fence-claim --nemesis partition,kill --seed 3`,
    )
    .action(async (flags: CliFlags) => {
      if ((flags.workload as string) === 'queue') return runQueueCommand(flags);
      refuseQueueOnly(flags);
      const options = runOptionsOf(flags);
      // Options and a results directory that cannot take the run are a 254 now, not after the cluster came up.
      validateRunOptions(options);
      assertOptionsApply(options, [options.backend]);
      if (flags.plan === true) {
        // What plan.json of this run will hold, nothing made or started (no cluster, no results directory).
        process.stdout.write(planText(planRun(options)));
        return;
      }
      ensureWritableDir(options.resultsDir, '`--results`');
      for (const note of runOptionNotes(options, options.nemesis)) process.stderr.write(`warning: ${note}\n`);
      const busyTimeoutMs = flags.busyTimeoutMs;
      // Loaded here, not at start-up: the cluster, clients and report code is needed only when a run starts.
      const { runLockTest } = await import('../run/run-lock-test.js');
      // Log lines quote servers, clients and the options: each kept to its line (core/printable.ts).
      const log = (l: string): void => void process.stderr.write(oneLine(l) + '\n');
      // A cluster `fencecheck up --keep` left is adopted (reset and checked) and kept again; else the run starts its own.
      const pool = (await import('../../runtime/cluster/kept-cluster.js')).keptClusterRecorded()
        ? new (await import('../../runtime/runner/warm-pool.js')).WarmPool()
        : undefined;
      const result = await runLockTest(options, { log, busyTimeoutMs, ...(pool ? { warm: pool } : {}) }).finally(() => pool?.close(log));
      process.stdout.write(formatVerdicts(result.verdicts, result.deciding) + '\n');
      process.stdout.write(`verdict: ${result.valid === true ? 'valid' : result.valid === false ? 'INVALID' : 'unknown'} (${result.deciding.join(', ')})\n`);
      const results = RunStore.open(result.runDir).readResults();
      process.stdout.write(oneLine(results === null ? 'outcome: unknown (no results.json)' : formatStoredOutcome(results, options.workload)) + '\n');
      process.stdout.write(
        `run: ${oneLine(result.runDir)}\n${result.reportPath ? `report: ${oneLine(result.reportPath)}\n` : ''}replay: ${oneLine(result.replay)}\n`,
      );
      // Untested is not safe (3): the outcome decides, as results.json records it.
      process.exitCode = results === null ? (result.valid === false ? EXIT.invalid : EXIT.unknown) : outcomeExitCode(results);
    });
}

/** RunOptions out of the parsed flags (what a replay command must give back). */
export function runOptionsOf(flags: CliFlags): RunOptions {
  const aimed = flags.nemesis.map((part) => splitAim(part, '--nemesis'));
  const aims: Aims = Object.fromEntries(aimed.filter((a) => a.on !== undefined).map((a) => [a.fault, a.on]));
  const options: RunOptions = {
    backend: flags.backend,
    resource: flags.resource,
    workload: flags.workload,
    nemesis: aimed.map((a) => a.fault as FaultKind),
    seed: flags.seed,
    resultsDir: flags.results,
    ...sharedRunOptions(flags),
    ...scriptOptions(flags),
  };
  if (Object.keys(aims).length === 0) return options;
  // An aimed fault is its seeded window waiting for the event: the run becomes the --script run compare's
  // `fault@event` columns make, so its replay command and plan.json show each window's trigger.
  if (options.script !== undefined)
    throw new UsageError(
      `Expected either \`--script\` or faults aimed with \`@\` in \`--nemesis\`, got both (\`--nemesis ${flags.nemesis.join(',')}\`)`,
      'A script says itself when each window strikes (a window\'s "trigger": docs/hunt.md); drop the @event from --nemesis, or drop --script.',
    );
  const why = aimsNotApplicable(aims, options.resource);
  if (why !== undefined)
    throw new UsageError(
      `Cannot aim \`--nemesis ${flags.nemesis.join(',')}\`: ${why}.`,
      'Aim the fault at another lock event (docs/hunt.md#triggers), or run a cas-unique resource mode.',
    );
  validateRunOptions(options);
  return { ...options, script: aimedScript(options, aims) };
}

export type { CliFlags };

function faultList(text: string): string[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'none');
  const faults = items.map((part) => splitAim(part, '--nemesis').fault);
  const repeated = faults.find((f, i) => faults.indexOf(f) !== i);
  if (repeated !== undefined)
    throw new UsageError(
      `Expected each fault at most once in \`--nemesis\`, got \`${text}\` (${repeated} twice)`,
      'Name each fault once: its seeded schedule already strikes it again and again (every --interval-ms).',
    );
  // A queue run's own faults pass here; a lock run refuses them with their meaning (refuseQueueOnly).
  for (const f of faults)
    if (!(SCHEDULED_FAULT_KINDS as readonly string[]).includes(f) && !(QUEUE_FAULTS as readonly string[]).includes(f)) throw unknownFault(f);
  return items;
}
