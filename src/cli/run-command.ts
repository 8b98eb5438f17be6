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
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { outcomeExitCode } from '../../core/run-files/stored-outcome.js';
import { assertOptionsApply, DEFAULTS, runOptionNotes, unknownFault, validateRunOptions, type RunOptions } from '../../core/plan/run-options.js';
import type { FaultKind } from '../../core/generator/nemesis-schedule.js';
import { FLAG_RANGES, numberFlag, oneOf, seedFlag, withRange } from './parse-options.js';
import { addRunFlags, sharedRunOptions } from './run-flags.js';
import { addScriptFlags, scriptOptions } from './script-flags.js';
import { formatVerdicts } from '../check/format-lock-verdicts.js';
import { ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { oneLine } from '../../core/printable.js';
import { LOCK_BACKENDS, RESOURCE_MODES, SCHEDULED_FAULT_KINDS, WORKLOADS } from '../../core/vocabulary.js';

export function registerRunCommand(program: Command): void {
  const cmd = program
    .command('run')
    .description('Run a lock workload against a real cluster under faults, record the history and check it.')
    .requiredOption('--backend <name>', `lock service: ${LOCK_BACKENDS.join(', ')}`, oneOf('--backend', LOCK_BACKENDS))
    .option('--resource <mode>', `protected resource mode: ${RESOURCE_MODES.join(', ')}`, oneOf('--resource', RESOURCE_MODES), 'none')
    .option('--workload <name>', `workload: ${WORKLOADS.join(', ')}`, oneOf('--workload', WORKLOADS), 'lock-counter')
    .option('--nemesis <list>', `faults, comma-separated: ${SCHEDULED_FAULT_KINDS.join(', ')} (the delay: \`fencecheck scenario\`, or a --script)`, faultList, []);
  addScriptFlags(addRunFlags(cmd))
    .option('--seed <n>', withRange('seed of the workload and nemesis schedules', FLAG_RANGES['--seed']), seedFlag('--seed'), DEFAULTS.seed)
    .option('--results <dir>', 'where run directories go', DEFAULTS.resultsDir)
    .option('--busy-timeout-ms <ms>', withRange('wait up to N ms for another fencecheck cluster on this machine to end', FLAG_RANGES['--busy-timeout-ms']), numberFlag('--busy-timeout-ms'), 0)
    .addHelpText(
      'after',
      `
Writes results/<backend>-<resource>-<workload>/<timestamp>/ (test.json, history.jsonl, results.json, logs/).
Exit codes: 0 safe, 1 invalid, 2 unknown, 3 untested (valid, but no fault struck or the lock never failed),
254 bad arguments, 255 the tool failed.
Needs root (network namespaces). Examples:
  fencecheck run --backend redis --resource none --workload lock-counter --nemesis client-pause --time-limit 60 --seed 1
  fencecheck run --backend etcd --resource fence-claim --nemesis partition,kill --seed 3`,
    )
    .action(async (flags: CliFlags) => {
      const options = runOptionsOf(flags);
      // Options and a results directory that cannot take the run are a 254 now, not after the cluster came up.
      validateRunOptions(options);
      assertOptionsApply(options, [options.backend]);
      ensureWritableDir(options.resultsDir, '`--results`');
      for (const note of runOptionNotes(options, options.nemesis)) process.stderr.write(`warning: ${note}\n`);
      const busyTimeoutMs = flags.busyTimeoutMs;
      // Loaded here, not at start-up: the cluster, clients and report code is needed only when a run starts.
      const { runLockTest } = await import('../run/run-lock-test.js');
      // Log lines quote servers, clients and the options: each kept to its line (src/printable.ts).
      const result = await runLockTest(options, { log: (l) => process.stderr.write(oneLine(l) + '\n'), busyTimeoutMs });
      process.stdout.write(formatVerdicts(result.verdicts, result.deciding) + '\n');
      process.stdout.write(`verdict: ${result.valid === true ? 'valid' : result.valid === false ? 'INVALID' : 'unknown'} (${result.deciding.join(', ')})\n`);
      const results = readResultsJson(result.runDir);
      process.stdout.write(oneLine(results === null ? 'outcome: unknown (no results.json)' : formatStoredOutcome(results, options.workload)) + '\n');
      process.stdout.write(`run: ${oneLine(result.runDir)}\n${result.reportPath ? `report: ${oneLine(result.reportPath)}\n` : ''}replay: ${oneLine(result.replay)}\n`);
      // Untested is not safe (3): the outcome decides, as results.json records it.
      process.exitCode = results === null ? (result.valid === false ? EXIT.invalid : EXIT.unknown) : outcomeExitCode(results);
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

export type CliFlags = Pick<RunOptions, 'backend' | 'resource' | 'workload' | 'nemesis' | 'seed'> & { results: string; busyTimeoutMs: number; [sharedFlag: string]: unknown };

function faultList(text: string): FaultKind[] {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== 'none');
  for (const f of items) if (!(SCHEDULED_FAULT_KINDS as readonly string[]).includes(f)) throw unknownFault(f);
  return items as FaultKind[];
}
