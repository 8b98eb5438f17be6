/**
 * The options of a lock run, their defaults (in one place) and their checks.
 * Every check throws a UsageError worded "Expected `--flag` to be …, got …".
 */
import { providerFlag, type ProviderName } from './providers.js';
import type { RedisPersistence } from './redis-persistence.js';
import type { EvictPolicy } from '../generator/eviction.js';
import { shellQuote } from '../shell-quote.js';
import { UsageError } from '../errors.js';
import { FAULT_KINDS, faultSpec, isFaultKind, type FaultKind, type FaultWindow } from '../generator/faults/registry.js';
import {
  builtinClientMissing,
  notApplicable,
  notApplicableWithoutLock,
  SCHEDULED_FAULT_KINDS,
  type LockBackend,
  type LockWorkload,
  type ResourceMode,
} from '../vocabulary.js';
import { assertInRange, type NumberRange } from '../number-range.js';
import { lockSystem, readersOf } from '../systems/registry.js';
import { scriptText } from '../generator/parse-script.js';

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
  /** redis-sentinel: `WAIT n` after each grant (core/systems/redis-sentinel.ts); other backends ignore it, as they ignore redisPersistence. */
  waitReplicas?: number;
  /** redis-sentinel: `min-replicas-to-write n` on every data node (core/systems/redis-sentinel.ts); other backends ignore it. */
  minReplicas?: number;
  /** Where the cluster runs: network namespaces (default) or containers (runtime/cluster/containers). */
  provider?: ProviderName;
  /** PostgreSQL ends a session idle in a transaction this long, ms (0: never, PostgreSQL's default): how long a paused for-update client keeps its row lock. */
  idleTxTimeoutMs?: number;
  /** The `evict` fault's eviction policy (default allkeys-lru); runs without `evict` ignore it. */
  evictPolicy?: EvictPolicy;
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
  idleTxTimeoutMs: 0,
};

/**
 * The range of every numeric run option, in one place: the flags' parsers
 * (src/cli/run-flags.ts), their --help, validateRunOptions (a compare
 * manifest, a scenario) and README.md's table (src/cli/range-table.ts) read them here. Times stay
 * well under Node's timer limit (core/number-range.ts).
 */
export const RUN_RANGES = {
  timeLimitS: { min: 1, max: 86_400, unit: 's' },
  clients: { min: 1, max: 50 },
  ttlMs: { min: 1, max: 3_600_000, unit: 'ms' },
  holdMs: { min: 0, max: 3_600_000, unit: 'ms' },
  rate: { min: 0.001, max: 1000, integer: false, unit: 'per second' },
  intervalMs: { min: 0, max: 86_400_000, unit: 'ms' },
  durationMs: { min: 1, max: 86_400_000, unit: 'ms' },
  recoverMs: { min: 0, max: 3_600_000, unit: 'ms' },
  callTimeoutMs: { min: 1, max: 600_000, unit: 'ms' },
  // The Sentinel master has two replicas (runtime/cluster/backends/redis-sentinel.ts).
  waitReplicas: { min: 1, max: 2 },
  minReplicas: { min: 1, max: 2 },
  // for-update: PostgreSQL's idle_in_transaction_session_timeout (0: off); at most a day.
  idleTxTimeoutMs: { min: 0, max: 86_400_000, unit: 'ms' },
  seed: { min: 0, max: Number.MAX_SAFE_INTEGER },
} as const satisfies Partial<Record<keyof RunOptions, NumberRange>>;

/** Each ranged option's flag. */
const RANGED_FLAGS: Record<keyof typeof RUN_RANGES, string> = {
  timeLimitS: '--time-limit',
  clients: '--clients',
  ttlMs: '--ttl-ms',
  holdMs: '--hold-ms',
  rate: '--rate',
  intervalMs: '--interval-ms',
  durationMs: '--duration-ms',
  recoverMs: '--recover-ms',
  callTimeoutMs: '--call-timeout-ms',
  waitReplicas: '--wait-replicas',
  minReplicas: '--min-replicas',
  idleTxTimeoutMs: '--idle-tx-timeout-ms',
  seed: '--seed',
};

export function validateRunOptions(o: RunOptions): RunOptions {
  for (const [key, range] of Object.entries(RUN_RANGES) as [keyof typeof RUN_RANGES, NumberRange][]) {
    const v = o[key];
    if (v !== undefined) assertInRange(RANGED_FLAGS[key], range, v);
  }
  const noClient = o.client === undefined ? builtinClientMissing(o.backend) : undefined;
  if (noClient) throw new UsageError(`Cannot run this combination: ${noClient}.`);
  const scripted = o.script !== undefined;
  const seeded = SCHEDULED_FAULT_KINDS as readonly string[];
  for (const f of o.nemesis) if (!(FAULT_KINDS as readonly string[]).includes(f) || (!scripted && !seeded.includes(f))) throw unknownFault(f);
  const why =
    notApplicable(o.backend, o.resource, scripted ? o.script!.map((w) => w.fault) : o.nemesis, scripted) ?? notApplicableWithoutLock(o.backend, o.workload);
  if (why)
    throw new UsageError(
      `Cannot run this combination: ${why}.`,
      o.backend === 'none'
        ? 'Without a lock, the database protects the data itself: --resource version or for-update (or none, to see it unprotected).'
        : undefined,
    );
  const policies = [
    ...new Set([
      ...(o.nemesis.includes('evict') && !scripted ? [o.evictPolicy ?? 'allkeys-lru'] : []),
      ...(o.script ?? []).flatMap((w) => (w.fault === 'evict' ? [w.policy] : [])),
    ]),
  ];
  const has = lockSystem(o.backend).evictPolicies;
  const missing = has === undefined ? undefined : policies.find((p) => !has.includes(p));
  if (missing !== undefined)
    throw new UsageError(
      `Cannot run this combination: ${o.backend} has no ${missing} eviction (it evicts by ${has!.join(', ')}).`,
      `Give \`--evict-policy ${has![0]}\` (the default), or run the evict fault on redis or redlock.`,
    );
  if (o.backend === 'none' && o.client !== undefined) {
    throw new UsageError(
      'Cannot run this combination: --client runs a foreign lock client, and --backend none has no lock service for it to use.',
      'Drop --client (the built-in client goes straight to the resource), or name the lock service the client speaks with --backend.',
    );
  }
  return o;
}

/** `--nemesis` naming a fault a seeded run cannot drive; the delay's hint says where it is driven. */
export function unknownFault(f: string): UsageError {
  return new UsageError(
    `Expected \`--nemesis\` to list faults among ${SCHEDULED_FAULT_KINDS.join(', ')}, got \`${f}\``,
    isFaultKind(f) ? faultSpec(f).unscheduled?.hint : undefined,
  );
}

/**
 * Options that only one backend reads, given for runs none of whose backends reads them: refused, since a
 * run that silently ignores `--wait-replicas` reads as if it had been tested with it. `backends` are the
 * backends the options will be used with (one for `run`, the matrix's for `compare`): not part of
 * validateRunOptions, which judges one run, since a matrix's redis cell gets the option its
 * redis-sentinel cell reads (and leaves it out of its replay).
 */
export function assertOptionsApply(o: Pick<RunOptions, 'waitReplicas' | 'minReplicas'>, backends: readonly LockBackend[]): void {
  for (const [flag, option] of [
    ['--wait-replicas', 'waitReplicas'],
    ['--min-replicas', 'minReplicas'],
  ] as const) {
    const readers = readersOf(option);
    if (o[option] === undefined || backends.some((b) => readers.includes(b))) continue;
    throw new UsageError(
      `Expected \`${flag}\` only with the ${readers.join(' or ')} backend, got it with ${backends.join(', ')}`,
      `Drop ${flag}, or run --backend ${readers.join(' or ')} (compare: include it in --backends).`,
    );
  }
}

/**
 * What a run will do otherwise than its options say, for a warning before it starts (run and compare,
 * --dry-run too): a client pause lasts at least 2 x TTL, so a shorter --duration-ms is raised.
 */
export function runOptionNotes(o: Pick<RunOptions, 'durationMs' | 'ttlMs'>, faults: readonly string[]): string[] {
  const pauseMs = 2 * o.ttlMs;
  // The kinds whose seeded window lasts the client pause (the client pause), not --duration-ms.
  const paused = faults.some((f) => isFaultKind(f) && faultSpec(f).seededLength === 'pause');
  if (!paused || o.durationMs >= pauseMs) return [];
  return [
    `--duration-ms ${o.durationMs} is shorter than 2 x --ttl-ms: each client pause lasts ${pauseMs} ms (a pause shorter than two leases could not outlive one); give --duration-ms ${pauseMs} or more to say so`,
  ];
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
  idleTxTimeoutMs: (o) => ['--idle-tx-timeout-ms', String(o.idleTxTimeoutMs ?? DEFAULTS.idleTxTimeoutMs ?? 0)],
  nemesisTarget: (o) => ['--nemesis-target', o.nemesisTarget],
  redisPersistence: (o) => ['--redis-persistence', o.redisPersistence],
  resultsDir: (o) => ['--results', o.resultsDir],
  checkHold: (o) => (o.checkHold ? ['--check-hold'] : []),
  client: (o) => (o.client !== undefined ? ['--client', o.client] : []),
  // Only the systems that read them (redis-sentinel: core/systems/); other backends ignore them, so their replays leave them out.
  waitReplicas: (o) => (readersOf('waitReplicas').includes(o.backend) && o.waitReplicas ? ['--wait-replicas', String(o.waitReplicas)] : []),
  minReplicas: (o) => (readersOf('minReplicas').includes(o.backend) && o.minReplicas ? ['--min-replicas', String(o.minReplicas)] : []),
  provider: (o) => providerFlag(o.provider),
  // Only runs with evict use it, so the replays of every other run read as before.
  evictPolicy: (o) => (o.nemesis.includes('evict') || o.script?.some((w) => w.fault === 'evict') ? ['--evict-policy', o.evictPolicy ?? 'allkeys-lru'] : []),
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
