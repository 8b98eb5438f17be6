/**
 * The flags every lock run shares, declared once for `fencecheck run` and
 * `fencecheck compare` (which applies them to every run of its matrix).
 */
import { Option, type Command } from 'commander';
import type { SharedRunOptions } from '../compare/compare-spec.js';
import { DEFAULTS, RUN_RANGES } from '../../core/plan/run-options.js';
import { REDIS_PERSISTENCE } from '../../core/plan/redis-persistence.js';
import { PROVIDERS } from '../../core/plan/providers.js';
import { EVICT_POLICIES } from '../../core/generator/eviction.js';
import { oneOf } from './parse-options.js';
import { parseInRange, rangeHelp } from '../../core/number-range.js';
import { parseClientCommand } from '../../runtime/runner/client-command-line.js';
import { commandLine, namedClient } from '../../runtime/runner/client-registry.js';
import { projectRoot } from '../../runtime/hosts/paths.js';

/** A numeric flag: its parser and its help read the one range of run-options.ts. */
function ranged(flags: string, key: keyof typeof RUN_RANGES, help: string): [string, keyof SharedRunOptions, string, (text: string) => unknown] {
  const range = RUN_RANGES[key];
  return [flags, key as keyof SharedRunOptions, `${help} [${rangeHelp(range)}]`, parseInRange(flags.split(' ')[0]!, range)];
}

/** [flags, RunOptions key, help, parser]: read back by key after parsing. */
export const RUN_FLAGS: [string, keyof SharedRunOptions, string, (text: string) => unknown][] = [
  ranged('--time-limit <s>', 'timeLimitS', 'seconds of workload under faults, per run'),
  ranged('--clients <n>', 'clients', 'client processes per run, each in its own host'),
  ranged('--ttl-ms <ms>', 'ttlMs', 'lock lease / TTL / session timeout'),
  ranged('--hold-ms <ms>', 'holdMs', 'how long a holder keeps the lock'),
  ranged('--rate <n>', 'rate', 'critical sections per second per client'),
  ranged('--interval-ms <ms>', 'intervalMs', 'quiet time before each fault'),
  ranged('--duration-ms <ms>', 'durationMs', 'how long a fault lasts (a client pause: at least 2 x TTL)'),
  ranged('--recover-ms <ms>', 'recoverMs', 'wait after healing, before the final read'),
  ranged('--call-timeout-ms <ms>', 'callTimeoutMs', 'timeout of each client call'),
  ['--nemesis-target <node>', 'nemesisTarget', 'what server faults hit: a node, leader (master) or random', String],
  ['--redis-persistence <mode>', 'redisPersistence', `redis and redlock: ${REDIS_PERSISTENCE.join(', ')}`, oneOf('--redis-persistence', REDIS_PERSISTENCE)],
  ranged('--wait-replicas <n>', 'waitReplicas', 'redis-sentinel: WAIT for n replicas after each grant, else refuse it'),
  ranged(
    '--idle-tx-timeout-ms <ms>',
    'idleTxTimeoutMs',
    "for-update: PostgreSQL's idle_in_transaction_session_timeout, how long a paused client keeps its row lock (0: until it wakes)",
  ),
  ranged('--min-replicas <n>', 'minReplicas', 'redis-sentinel: min-replicas-to-write n (max lag 1 s) on the data nodes'),
  [
    '--evict-policy <policy>',
    'evictPolicy',
    `the evict fault's eviction policy: ${EVICT_POLICIES.join(' (default, as caches run) or ')}`,
    oneOf('--evict-policy', EVICT_POLICIES),
  ],
  [
    '--provider <name>',
    'provider',
    `where the cluster runs: ${PROVIDERS.join(' (root) or ')} (a Docker daemon; \`fencecheck images build\` first; \`--harness auto|host|container\`: where fencecheck itself runs)`,
    oneOf('--provider', PROVIDERS),
  ],
];

const CHECK_HOLD = '--check-hold';
const CLIENT = '--client <command>';
export const CLIENT_HELP =
  "a foreign lock client to run in each client namespace instead of the built-in one: a command line, e.g. '/usr/bin/python3 clients/python/redis_py_client.py' (docs/client-protocol.md), or a known client's name (kazoo, simple-redis-mutex, ...: the names --lock-clients takes); --backend then names the cluster";

export function addRunFlags(cmd: Command): Command {
  for (const [flags, key, help, parse] of RUN_FLAGS) cmd.addOption(new Option(flags, help).argParser(parse).default(DEFAULTS[key]));
  return cmd
    .option(CHECK_HOLD, 'careful clients: no resource access once etcd / ZooKeeper say the hold is lost', DEFAULTS.checkHold)
    .addOption(new Option(CLIENT, CLIENT_HELP).argParser(clientCommand));
}

/** The shared run options out of commander's parsed flags. */
export function sharedRunOptions(flags: Record<string, unknown>): SharedRunOptions {
  const shared = Object.fromEntries(RUN_FLAGS.map(([f, key]) => [key, flags[flagAttribute(f)]]));
  const client = flags[flagAttribute(CLIENT)];
  return { ...shared, checkHold: flags[flagAttribute(CHECK_HOLD)] === true, ...(typeof client === 'string' ? { client } : {}) } as unknown as SharedRunOptions;
}

/** `--time-limit <s>` → `timeLimit`, as commander names the attribute. */
export function flagAttribute(flags: string): string {
  return flags
    .split(' ')[0]!
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The attribute names of the shared flags (to tell which were given on the command line). */
export function runFlagAttributes(): string[] {
  return [...RUN_FLAGS.map(([f]) => flagAttribute(f)), flagAttribute(CHECK_HOLD), flagAttribute(CLIENT)];
}

/** `--client`'s text, kept as given once it splits into a command line (a UsageError otherwise). */
/**
 * `--client`: a command line, or the name of a client fencecheck knows (`kazoo`, `simple-redis-mutex`: the
 * names `--lock-clients` takes), which stands for its command line. A word without a blank or a slash that is
 * not a known name is a program on the PATH, as before.
 */
export function clientCommand(text: string): string {
  const named = /[\s/]/.test(text) ? undefined : namedClient(text.trim());
  if (named !== undefined) return commandLine(named.argv(projectRoot()));
  parseClientCommand(text);
  return text;
}
