/**
 * The options of a lock run, their defaults (in one place) and their checks.
 * Every check throws a UsageError worded "Expected `--flag` to be …, got …".
 */
import type { ProviderName } from '../../src/cluster/providers.js';
import type { RedisPersistence } from '../../src/cluster/backends/redis.js';
import { shellQuote } from '../../src/cluster/shell-quote.js';
import { UsageError } from '../../src/errors.js';
import { FAULT_KINDS, type FaultKind, type FaultWindow } from '../generator/nemesis-schedule.js';
import { scriptText } from '../generator/parse-script.js';
import { notApplicable, type LockBackend, type LockWorkload, type ResourceMode } from '../vocabulary.js';

export interface RunOptions {
  backend: LockBackend;
  resource: ResourceMode;
  workload: LockWorkload;
  nemesis: FaultKind[];
  timeLimitS: number;
  clients: number;
  ttlMs: number;
  seed: number;
  /** Time a holder keeps the lock (lock-counter: between its read and its write), ms. */
  holdMs: number;
  /** Critical sections per second per client, on average. */
  rate: number;
  /** Quiet time before each fault, ms. */
  intervalMs: number;
  /** How long a fault lasts, ms (a client pause lasts at least 2 × TTL). */
  durationMs: number;
  /** After healing, wait this long before the final reads, ms. */
  recoverMs: number;
  /** Per-call timeout of clients against the lock service and the resource, ms. */
  callTimeoutMs: number;
  /** What server faults aim at: a node name, `leader` or `random`. */
  nemesisTarget: string;
  redisPersistence: RedisPersistence;
  /** The parent of run directories (default `results`). */
  resultsDir: string;
  /** Careful clients: refuse to touch the resource once the lock library says the hold is lost (etcd, ZooKeeper). */
  checkHold: boolean;
  /** A scripted fault timeline (named scenarios): replaces the seeded schedule of `nemesis`. */
  script?: FaultWindow[];
  /**
   * Put a delay proxy (delay 0 until a `delay` fault) on each client's links
   * to the resource, to the lock service, or both, so a scripted `delay` can
   * slow one client's link.
   */
  proxies?: 'resource' | 'lock' | 'both';
  /** Name of the test (the results folder); default `<backend>-<resource>-<workload>`. */
  name?: string;
  /** A foreign lock client's command line (docs/client-protocol.md); the backend then only names the cluster. */
  client?: string;
  /** redis-sentinel: `WAIT n` after each grant (./sentinel-run.ts); other backends ignore it, as they ignore redisPersistence. */
  waitReplicas?: number;
  /** redis-sentinel: `min-replicas-to-write n` on every data node (./sentinel-run.ts); other backends ignore it. */
  minReplicas?: number;
  /** Where the cluster runs: network namespaces (default) or containers (src/containers). */
  provider?: ProviderName;
}

export const DEFAULTS: Omit<RunOptions, 'backend' | 'resource' | 'workload'> = {
  nemesis: [],
  timeLimitS: 30,
  clients: 5,
  ttlMs: 2000,
  seed: 1,
  holdMs: 200,
  rate: 2,
  intervalMs: 5000,
  durationMs: 5000,
  recoverMs: 5000,
  callTimeoutMs: 1000,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'results',
  checkHold: false,
};

export function validateRunOptions(o: RunOptions): RunOptions {
  const positive = (flag: string, v: number) => {
    if (!(Number.isFinite(v) && v > 0)) throw new UsageError(`Expected \`${flag}\` to be a positive number, got \`${v}\``);
  };
  positive('--time-limit', o.timeLimitS);
  positive('--ttl-ms', o.ttlMs);
  positive('--rate', o.rate);
  positive('--call-timeout-ms', o.callTimeoutMs);
  if (!Number.isInteger(o.clients) || o.clients < 1 || o.clients > 50) throw new UsageError(`Expected \`--clients\` to be an integer from 1 to 50, got \`${o.clients}\``);
  if (!Number.isSafeInteger(o.seed)) throw new UsageError(`Expected \`--seed\` to be an integer, got \`${o.seed}\``);
  for (const f of o.nemesis) if (!(FAULT_KINDS as readonly string[]).includes(f)) throw new UsageError(`Expected \`--nemesis\` to list faults among ${FAULT_KINDS.join(', ')}, got \`${f}\``);
  const scripted = o.script !== undefined;
  const why = notApplicable(o.backend, o.resource, scripted ? o.script!.map((w) => w.fault) : o.nemesis, scripted);
  if (why) throw new UsageError(`Cannot run this combination: ${why}.`);
  return o;
}

/**
 * Each option as the flags of `fencecheck run` that set it. A Record over the
 * options, so an option added without its flag is a type error here. Every
 * flag is written, defaults too: a replay must not change when a default
 * does. `name` has no flag (a named scenario's run replays as `fencecheck
 * scenario run ...`, stamped by the scenario runner); a script is written as
 * `--script JSON` (../generator/parse-script.ts), so a hunt's try or a shrunk
 * plan replays as a plain run.
 */
const REPLAY_FLAGS: { [K in Exclude<keyof RunOptions, 'name'>]-?: (o: RunOptions) => string[] } = {
  backend: (o) => ['--backend', o.backend],
  resource: (o) => ['--resource', o.resource],
  workload: (o) => ['--workload', o.workload],
  nemesis: (o) => ['--nemesis', o.nemesis.length > 0 ? o.nemesis.join(',') : 'none'],
  timeLimitS: (o) => ['--time-limit', String(o.timeLimitS)],
  clients: (o) => ['--clients', String(o.clients)],
  ttlMs: (o) => ['--ttl-ms', String(o.ttlMs)],
  holdMs: (o) => ['--hold-ms', String(o.holdMs)],
  rate: (o) => ['--rate', String(o.rate)],
  intervalMs: (o) => ['--interval-ms', String(o.intervalMs)],
  durationMs: (o) => ['--duration-ms', String(o.durationMs)],
  recoverMs: (o) => ['--recover-ms', String(o.recoverMs)],
  callTimeoutMs: (o) => ['--call-timeout-ms', String(o.callTimeoutMs)],
  nemesisTarget: (o) => ['--nemesis-target', o.nemesisTarget],
  redisPersistence: (o) => ['--redis-persistence', o.redisPersistence],
  resultsDir: (o) => ['--results', o.resultsDir],
  checkHold: (o) => (o.checkHold ? ['--check-hold'] : []),
  client: (o) => (o.client !== undefined ? ['--client', o.client] : []),
  // redis-sentinel only (./sentinel-run.ts); other backends ignore them, so their replays leave them out.
  waitReplicas: (o) => (o.backend === 'redis-sentinel' && o.waitReplicas ? ['--wait-replicas', String(o.waitReplicas)] : []),
  minReplicas: (o) => (o.backend === 'redis-sentinel' && o.minReplicas ? ['--min-replicas', String(o.minReplicas)] : []),
  // The default (namespaces) is left out, so replays written before providers existed read the same.
  provider: (o) => (o.provider === 'containers' ? ['--provider', 'containers'] : []),
  proxies: (o) => (o.proxies !== undefined ? ['--proxies', o.proxies] : []),
  script: (o) => (o.script !== undefined ? ['--script', scriptText(o.script)] : []),
  seed: (o) => ['--seed', String(o.seed)],
};

/** The arguments of `fencecheck run` that replay a run exactly. */
export function replayArgs(o: RunOptions): string[] {
  return ['run', ...Object.values(REPLAY_FLAGS).flatMap((flags) => flags(o))];
}

/** The command line that replays a run exactly, quoted for a shell. */
export function replayCommand(o: RunOptions): string {
  return `fencecheck ${shellQuote(replayArgs(o))}`;
}
