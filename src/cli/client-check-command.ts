/**
 * `fencecheck client-check --backend B [--client 'CMD']`: a lock client (a
 * foreign one, or the built-in client of B) through the client contract on a
 * real cluster. One line per check with its evidence, then what the client
 * supports. Exits 0 when no check failed, 1 when one did, 254 when the client
 * never became ready (its stderr tail is printed).
 */
import { PROVIDERS, type ProviderName } from '../../core/plan/providers.js';
import type { Command } from 'commander';
import { EXIT, UsageError } from '../../core/errors.js';
import { ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { oneLine } from '../../core/printable.js';
import { builtinClientMissing, LOCK_SERVICES } from '../../core/vocabulary.js';
import type { CheckResult } from '../../runtime/client-check/contract-checks.js';
import { FLAG_RANGES, numberFlag, oneOf, withRange } from './parse-options.js';
import { parseInRange } from '../../core/number-range.js';
import { RUN_RANGES } from '../../core/plan/run-options.js';
import { CLIENT_HELP, clientCommand } from './run-flags.js';
import { QUEUE_SERVERS } from '../../core/queue/queue-options.js';
import type { QueueServer } from '../../core/queue/queue-libraries.js';

interface Flags {
  backend: (typeof LOCK_SERVICES)[number] | 'postgres';
  workload: 'lock' | 'queue';
  client?: string;
  callTimeoutMs: number;
  ttlMs: number;
  results: string;
  busyTimeoutMs: number;
  provider: ProviderName;
}

export function registerClientCheckCommand(program: Command): void {
  program
    .command('client-check')
    .description('Check a lock client against the client contract on a real cluster: exclusion, hand-over, tokens, fences, a paused holder.')
    .requiredOption(
      '--backend <name>',
      `the cluster to start (and the built-in client without --client): ${LOCK_SERVICES.join(', ')}; with --workload queue the queue's server: ${QUEUE_SERVERS.join(', ')}`,
      oneOf('--backend', CHECK_BACKENDS),
    )
    .option(
      '--workload <kind>',
      'lock (a lock client, docs/client-protocol.md) or queue (a queue program: producer and worker, docs/queues.md)',
      oneOf('--workload', ['lock', 'queue'] as const),
      'lock',
    )
    .option('--client <command>', CLIENT_HELP, clientCommand)
    .option(
      '--call-timeout-ms <ms>',
      withRange('timeout of each client call', RUN_RANGES.callTimeoutMs),
      parseInRange('--call-timeout-ms', RUN_RANGES.callTimeoutMs),
      1000,
    )
    .option('--ttl-ms <ms>', withRange("the paused holder's lease / TTL / session", RUN_RANGES.ttlMs), parseInRange('--ttl-ms', RUN_RANGES.ttlMs), 2000)
    .option('--results <dir>', 'where the cluster logs go (results/client-check/<time>)', 'results')
    .option(
      '--busy-timeout-ms <ms>',
      withRange('wait up to N ms for another fencecheck cluster on this machine to end', FLAG_RANGES['--busy-timeout-ms']),
      numberFlag('--busy-timeout-ms'),
      0,
    )
    .option(
      '--provider <name>',
      `where the cluster runs: ${PROVIDERS.join(' (root) or ')} (a Docker daemon; \`--harness auto|host|container\`: where fencecheck itself runs)`,
      oneOf('--provider', PROVIDERS),
      'namespaces',
    )
    .addHelpText(
      'after',
      `
Needs root (network namespaces). Examples:
  fencecheck client-check --backend redis --client '/usr/bin/python3 clients/python/redis_py_client.py'
  fencecheck client-check --backend etcd
  fencecheck client-check --workload queue --backend redis --client 'node my-queue-program.mjs'
See docs/client-protocol.md for the protocol a client speaks, docs/queues.md for a queue program's.`,
    )
    .action(async (flags: Flags) => {
      if (flags.workload === 'queue') return queueClientCheck(flags);
      if (flags.backend === 'postgres')
        throw new UsageError("Expected a lock service with `--backend postgres`, got a queue's server", 'Add --workload queue to check a queue program on it.');
      const noClient = flags.client === undefined ? builtinClientMissing(flags.backend) : undefined;
      if (noClient) throw new UsageError(`Cannot check: ${noClient}.`);
      const { runClientCheck, clientCheckDir } = await import('../../runtime/client-check/run-client-check.js');
      const dir = clientCheckDir(ensureWritableDir(flags.results, '`--results`'));
      process.stderr.write(
        oneLine(`client-check: ${flags.client ?? `built-in ${flags.backend} client`} on a ${flags.backend} cluster; logs in ${dir}/logs`) + '\n',
      );
      const result = await runClientCheck(
        {
          backend: flags.backend,
          ...(flags.client !== undefined ? { client: flags.client } : {}),
          callTimeoutMs: flags.callTimeoutMs,
          pausedTtlMs: flags.ttlMs,
          provider: flags.provider,
          // A client's answers, versions and log lines are input: each kept to its line (core/printable.ts).
          log: (l) => process.stderr.write(`${oneLine(l)}\n`),
          onCheck: (r) => process.stdout.write(checkLine(r) + '\n'),
        },
        dir,
        flags.busyTimeoutMs,
      );
      const failed = result.checks.filter((c) => c.status === 'fail').map((c) => c.check);
      process.stdout.write(
        [
          `token: ${result.token}${result.token === 'monotonic' ? ' (a fencing token)' : result.token === 'unique' ? ' (no order: no fencing token)' : ' (none)'}`,
          `resource modes that apply: ${result.modes.join(', ')}`,
          `versions: ${Object.entries(result.versions)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
          `client-check: ${failed.length === 0 ? 'PASSED' : `FAILED (${failed.join(', ')})`}`,
        ]
          .map(oneLine)
          .join('\n') + '\n',
      );
      process.exitCode = failed.length === 0 ? EXIT.valid : EXIT.invalid;
    });
}

const CHECK_BACKENDS = [...LOCK_SERVICES, 'postgres'] as const;

/** `--workload queue`: a queue program (a library's name or a command line) through the queue protocol's contract. */
async function queueClientCheck(flags: Flags): Promise<void> {
  if (flags.client === undefined)
    throw new UsageError(
      'Expected `--client` with `--workload queue`: the queue program to check',
      'Name a library (`--client bullmq`: docs/queues.md) or give its command line.',
    );
  if (!(QUEUE_SERVERS as readonly string[]).includes(flags.backend))
    throw new UsageError(`Expected a queue's server with \`--workload queue\` (${QUEUE_SERVERS.join(', ')}), got \`--backend ${flags.backend}\``);
  if (flags.provider !== 'namespaces')
    throw new UsageError('Expected `--provider namespaces` with `--workload queue`: a queue run has no containers provider yet');
  const { runQueueClientCheck } = await import('../run/queue-client-check.js');
  const dir = ensureWritableDir(flags.results, '`--results`');
  process.stderr.write(oneLine(`client-check: queue program ${flags.client} on a ${flags.backend} server; its run under ${dir}`) + '\n');
  const log = (l: string): void => void process.stderr.write(`${oneLine(l)}\n`);
  const { runInFreeSlot } = await import('../run/run-in-free-slot.js');
  // The lowest free slot, as a queue run takes: a client-check beside another queue command gets a cluster of its own.
  const r = await runInFreeSlot(
    (slot) => runQueueClientCheck(flags.backend as QueueServer, flags.client!, dir, { log, busyTimeoutMs: 0, slot }),
    flags.busyTimeoutMs,
    log,
  );
  for (const c of r.checks) process.stdout.write(checkLine(c) + '\n');
  const failed = r.checks.filter((c) => c.status === 'fail').map((c) => c.check);
  process.stdout.write(
    [
      `library: ${r.library}`,
      `attempt number: ${r.attempt ?? 'none (attempt-fence n/a)'}`,
      `run: ${r.runDir}`,
      `client-check: ${failed.length === 0 ? 'PASSED' : `FAILED (${failed.join(', ')})`}`,
    ]
      .map(oneLine)
      .join('\n') + '\n',
  );
  process.exitCode = failed.length === 0 ? EXIT.valid : EXIT.invalid;
}

export function checkLine(r: Pick<CheckResult, 'check' | 'status' | 'evidence'>): string {
  return oneLine(`${r.status.toUpperCase().padEnd(5)} ${r.check.padEnd(14)} ${r.evidence}`);
}
