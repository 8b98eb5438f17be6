/**
 * `fencecheck run`: one lock run against real servers under faults, checked.
 * Prints progress, one verdict line per checker, the run directory and the
 * exact replay command; exits 0 valid, 1 invalid, 2 unknown, 254 bad
 * arguments, 255 when the tool itself failed.
 */
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { formatStoredOutcome } from '../check/format-outcome.js';
import { readResultsJson } from '../store/results-json.js';
import { DEFAULTS, type RunOptions } from '../../workloads/runner/run-options.js';
import { FAULT_KINDS, type FaultKind } from '../../workloads/generator/nemesis-schedule.js';
import { nonNegativeInteger, oneOf, seedFlag } from './parse-options.js';
import { addRunFlags, sharedRunOptions } from './run-flags.js';
import { addScriptFlags, scriptOptions } from './script-flags.js';
import { formatVerdicts } from '../check/format-lock-verdicts.js';
import { UsageError } from '../errors.js';
import { LOCK_BACKENDS, RESOURCE_MODES, WORKLOADS } from '../../workloads/vocabulary.js';

export function registerRunCommand(program: Command): void {
  const cmd = program
    .command('run')
    .description('Run a lock workload against a real cluster under faults, record the history and check it.')
    .requiredOption('--backend <name>', `lock service: ${LOCK_BACKENDS.join(', ')}`, oneOf('--backend', LOCK_BACKENDS))
    .option('--resource <mode>', `protected resource mode: ${RESOURCE_MODES.join(', ')}`, oneOf('--resource', RESOURCE_MODES), 'none')
    .option('--workload <name>', `workload: ${WORKLOADS.join(', ')}`, oneOf('--workload', WORKLOADS), 'lock-counter')
    .option('--nemesis <list>', `faults, comma-separated: ${FAULT_KINDS.join(', ')}`, faultList, []);
  addScriptFlags(addRunFlags(cmd))
    .option('--seed <n>', 'seed of the workload and nemesis schedules', seedFlag('--seed'), DEFAULTS.seed)
    .option('--results <dir>', 'where run directories go', DEFAULTS.resultsDir)
    .option('--busy-timeout-ms <ms>', 'wait up to N ms for another fencecheck cluster on this machine to end', nonNegativeInteger('--busy-timeout-ms'), 0)
    .addHelpText(
      'after',
      `
Writes results/<backend>-<resource>-<workload>/<timestamp>/ (test.json, history.jsonl, results.json, logs/).
Needs root (network namespaces). Examples:
  fencecheck run --backend redis --resource none --workload lock-counter --nemesis client-pause --time-limit 60 --seed 1
  fencecheck run --backend etcd --resource fence-claim --nemesis partition,kill --seed 3`,
    )
    .action(async (flags: CliFlags) => {
      const options = runOptionsOf(flags);
      const busyTimeoutMs = flags.busyTimeoutMs;
      // Loaded here, not at start-up: the cluster, clients and report code is needed only when a run starts.
      const { runLockTest } = await import('../../workloads/runner/run-lock-test.js');
      const result = await runLockTest(options, { log: (l) => process.stderr.write(l + '\n'), busyTimeoutMs });
      process.stdout.write(formatVerdicts(result.verdicts, result.deciding) + '\n');
      process.stdout.write(`verdict: ${result.valid === true ? 'valid' : result.valid === false ? 'INVALID' : 'unknown'} (${result.deciding.join(', ')})\n`);
      process.stdout.write(outcomeLine(result.runDir, options.workload) + '\n');
      process.stdout.write(`run: ${result.runDir}\n${result.reportPath ? `report: ${result.reportPath}\n` : ''}replay: ${result.replay}\n`);
      process.exitCode = result.valid === true ? EXIT.valid : result.valid === false ? EXIT.invalid : EXIT.unknown;
    });
}

/** RunOptions out of the parsed flags (what a replay command must give back). */
export function runOptionsOf(flags: CliFlags): RunOptions {
  return {
    backend: flags.backend,
    resource: flags.resource,
    workload: flags.workload,
    nemesis: flags.nemesis,
    seed: flags.seed,
    resultsDir: flags.results,
    ...sharedRunOptions(flags),
    ...scriptOptions(flags),
  };
}

/** The outcome as results.json records it: safe only with evidence that the faults struck and the lock failed. */
function outcomeLine(runDir: string, workload: RunOptions['workload']): string {
  const results = readResultsJson(runDir);
  return results === null ? 'outcome: unknown (no results.json)' : formatStoredOutcome(results, workload);
}

export type CliFlags = Pick<RunOptions, 'backend' | 'resource' | 'workload' | 'nemesis' | 'seed'> & { results: string; busyTimeoutMs: number; [sharedFlag: string]: unknown };

function faultList(text: string): FaultKind[] {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== 'none');
  for (const f of items) if (!(FAULT_KINDS as readonly string[]).includes(f)) throw new UsageError(`Expected \`--nemesis\` to list faults among ${FAULT_KINDS.join(', ')}, got \`${f}\``);
  return items as FaultKind[];
}
