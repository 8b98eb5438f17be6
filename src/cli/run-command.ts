/**
 * `fencecheck run`: one lock run against real servers under faults, checked.
 * Prints progress, one verdict line per checker, the run directory and the
 * exact replay command; exits 0 valid, 1 invalid, 2 unknown, 254 bad
 * arguments, 255 when the tool itself failed.
 */
import type { Command } from 'commander';
import { REDIS_PERSISTENCE } from '../cluster/backends/redis.js';
import { EXIT } from '../errors.js';
import { LOCK_BACKENDS, RESOURCE_MODES } from '../../workloads/clients/protocol.js';
import { DEFAULTS, WORKLOADS, type RunOptions } from '../../workloads/runner/run-options.js';
import { FAULT_KINDS, type FaultKind } from '../../workloads/generator/nemesis-schedule.js';
import { integer, nonNegativeInteger, oneOf, positiveInteger, positiveNumber } from './parse-options.js';
import { formatVerdicts } from '../check/format-lock-verdicts.js';
import { UsageError } from '../errors.js';

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run a lock workload against a real cluster under faults, record the history and check it.')
    .requiredOption('--backend <name>', `lock service: ${LOCK_BACKENDS.join(', ')}`, oneOf('--backend', LOCK_BACKENDS))
    .option('--resource <mode>', `protected resource mode: ${RESOURCE_MODES.join(', ')}`, oneOf('--resource', RESOURCE_MODES), 'none')
    .option('--workload <name>', `workload: ${WORKLOADS.join(', ')}`, oneOf('--workload', WORKLOADS), 'lock-counter')
    .option('--nemesis <list>', `faults, comma-separated: ${FAULT_KINDS.join(', ')}`, faultList, [])
    .option('--time-limit <s>', 'seconds of workload under faults', positiveInteger('--time-limit'), DEFAULTS.timeLimitS)
    .option('--clients <n>', 'client processes, each in its own host', positiveInteger('--clients'), DEFAULTS.clients)
    .option('--ttl-ms <ms>', 'lock lease / TTL / session timeout', positiveInteger('--ttl-ms'), DEFAULTS.ttlMs)
    .option('--hold-ms <ms>', 'how long a holder keeps the lock', nonNegativeInteger('--hold-ms'), DEFAULTS.holdMs)
    .option('--rate <n>', 'critical sections per second per client', positiveNumber('--rate'), DEFAULTS.rate)
    .option('--interval-ms <ms>', 'quiet time before each fault', nonNegativeInteger('--interval-ms'), DEFAULTS.intervalMs)
    .option('--duration-ms <ms>', 'how long a fault lasts (a client pause: at least 2 x TTL)', positiveInteger('--duration-ms'), DEFAULTS.durationMs)
    .option('--recover-ms <ms>', 'wait after healing, before the final read', nonNegativeInteger('--recover-ms'), DEFAULTS.recoverMs)
    .option('--call-timeout-ms <ms>', 'timeout of each client call', positiveInteger('--call-timeout-ms'), DEFAULTS.callTimeoutMs)
    .option('--nemesis-target <node>', 'what server faults hit: a node, leader or random', DEFAULTS.nemesisTarget)
    .option('--redis-persistence <mode>', `redis and redlock: ${REDIS_PERSISTENCE.join(', ')}`, oneOf('--redis-persistence', REDIS_PERSISTENCE), DEFAULTS.redisPersistence)
    .option('--check-hold', 'careful clients: no resource access once etcd / ZooKeeper say the hold is lost', DEFAULTS.checkHold)
    .option('--seed <n>', 'seed of the workload and nemesis schedules', integer('--seed'), DEFAULTS.seed)
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
      // Commander names options after their flags; RunOptions says the unit where the flag does not.
      const { timeLimit, results, busyTimeoutMs, ...rest } = flags;
      const options: RunOptions = { ...rest, timeLimitS: timeLimit, resultsDir: results };
      // Loaded here, not at start-up: the cluster, clients and report code is needed only when a run starts.
      const { runLockTest } = await import('../../workloads/runner/run-lock-test.js');
      const result = await runLockTest(options, { log: (l) => process.stderr.write(l + '\n'), busyTimeoutMs });
      process.stdout.write(formatVerdicts(result.verdicts, result.deciding) + '\n');
      process.stdout.write(`verdict: ${result.valid === true ? 'valid' : result.valid === false ? 'INVALID' : 'unknown'} (${result.deciding.join(', ')})\n`);
      process.stdout.write(`run: ${result.runDir}\n${result.reportPath ? `report: ${result.reportPath}\n` : ''}replay: ${result.replay}\n`);
      process.exitCode = result.valid === true ? EXIT.valid : result.valid === false ? EXIT.invalid : EXIT.unknown;
    });
}

type CliFlags = Omit<RunOptions, 'timeLimitS' | 'resultsDir'> & { timeLimit: number; results: string; busyTimeoutMs: number };

function faultList(text: string): FaultKind[] {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '' && s !== 'none');
  for (const f of items) if (!(FAULT_KINDS as readonly string[]).includes(f)) throw new UsageError(`Expected \`--nemesis\` to list faults among ${FAULT_KINDS.join(', ')}, got \`${f}\``);
  return items as FaultKind[];
}
