/**
 * A queue run's test.json and plan.json read back (pure), for `fencecheck check RUN_DIR`
 * on a queue run: which run it is (workload queue, the queue's server, the resource mode,
 * the faults, the seed), checked; and how many fault windows its plan held, which the
 * outcome needs ("none of the N windows struck"). A file that does not fit is a
 * RunFileError (254) naming the field.
 */
import { expecter, isObject, isOneOf, parseJsonFile, RunFileError } from '../run-files/run-file-error.js';
import { rangeText, type NumberRange } from '../number-range.js';
import { RUN_RANGES } from '../plan/run-options.js';
import { REDIS_PERSISTENCE, type RedisPersistence } from '../plan/redis-persistence.js';
import { QUEUE_MODES, type QueueMode, type QueueServer } from './queue-libraries.js';
import { QUEUE_FAULTS, QUEUE_SERVERS, type QueueFault, type QueueRunOptions } from './queue-options.js';
import { parseQueueScript, WINDOW_FAULTS, type QueueWindow } from './queue-window.js';

export interface StoredQueueTest {
  name: string;
  workload: 'queue';
  backend: QueueServer;
  resource: QueueMode;
  client: string;
  nemesis: QueueFault[];
  seed: number;
  /** What the program announced itself as, and the command that replays the run: shown, never judged (absent in older runs). */
  library?: string;
  replay?: string;
  startedAt?: string;
}

/** A queue run's test.json, checked; null when it is not a queue run's (its workload says so): the lock run's reader's. */
export function parseQueueTestJson(text: string, file: string): StoredQueueTest | null {
  const json = parseJsonFile(text, file);
  if (!isObject(json) || json['workload'] !== 'queue') return null;
  const expect = expecter(file);
  const t = json;
  expect(typeof t['name'] === 'string' && t['name'] !== '', 'name', 'the name of the test', t['name']);
  expect(t['workload'] === 'queue', 'workload', 'queue', t['workload']);
  expect(isOneOf(QUEUE_SERVERS, t['backend']), 'backend', `one of ${QUEUE_SERVERS.join(', ')}`, t['backend']);
  expect(isOneOf(QUEUE_MODES, t['resource']), 'resource', `one of ${QUEUE_MODES.join(', ')}`, t['resource']);
  expect(typeof t['client'] === 'string' && t['client'] !== '', 'client', 'the queue library or program', t['client']);
  const n = t['nemesis'];
  expect(Array.isArray(n) && n.every((f) => isOneOf(QUEUE_FAULTS, f)), 'nemesis', `a list of ${QUEUE_FAULTS.join(', ')}`, n);
  expect(Number.isSafeInteger(t['seed']), 'seed', 'an integer', t['seed']);
  return {
    name: t['name'] as string,
    workload: 'queue',
    backend: t['backend'] as QueueServer,
    resource: t['resource'] as QueueMode,
    client: t['client'] as string,
    nemesis: n as QueueFault[],
    seed: t['seed'] as number,
    ...(typeof t['library'] === 'string' ? { library: t['library'] } : {}),
    ...(typeof t['replay'] === 'string' ? { replay: t['replay'] } : {}),
    ...(typeof t['startedAt'] === 'string' ? { startedAt: t['startedAt'] } : {}),
  };
}

/** The number of fault windows a queue run's plan.json holds (each `{atMs, durationMs}`, a fault of pause or kill when named). */
export function parseQueuePlanWindows(text: string, file: string): number {
  const json = parseJsonFile(text, file);
  const expect = expecter(file);
  expect(isObject(json), '(top level)', 'an object', json);
  const stalls = (json as Record<string, unknown>)['stalls'];
  expect(Array.isArray(stalls), 'stalls', "the plan's fault windows (an array)", stalls);
  (stalls as unknown[]).forEach((w, i) =>
    expect(
      isObject(w) && Number.isFinite(w['atMs']) && Number.isFinite(w['durationMs']) && (w['fault'] === undefined || isOneOf(WINDOW_FAULTS, w['fault'])),
      `stalls[${i}]`,
      `{ atMs, durationMs, fault: ${WINDOW_FAULTS.join(' | ')} }`,
      w,
    ),
  );
  return (stalls as unknown[]).length;
}

/** Each number of a queue run's options and the range its flag takes (`--clients` is `workers`, `--hold-ms` `jobMs`, `--ttl-ms` `lockMs`). */
const QUEUE_NUMBERS = {
  timeLimitS: RUN_RANGES.timeLimitS,
  workers: RUN_RANGES.clients,
  rate: RUN_RANGES.rate,
  jobMs: RUN_RANGES.holdMs,
  lockMs: RUN_RANGES.ttlMs,
  intervalMs: RUN_RANGES.intervalMs,
  durationMs: RUN_RANGES.durationMs,
  recoverMs: RUN_RANGES.recoverMs,
  callTimeoutMs: RUN_RANGES.callTimeoutMs,
} as const satisfies Partial<Record<keyof QueueRunOptions, NumberRange>>;

/**
 * A queue run's options from its test.json and plan.json (what `shrink` and a hunt's replay start from): test.json's
 * facts and numbers, each in its flag's range, and the windows its plan held, checked as `--script` checks them.
 * `resultsDir` is where the run's directory sits.
 */
export function parseQueueRunOptions(testText: string, testFile: string, planText: string, planFile: string, resultsDir: string): QueueRunOptions {
  const test = parseQueueTestJson(testText, testFile);
  if (test === null) throw new RunFileError(testFile, 'expected `workload` to be queue: this is not a queue run');
  const t = parseJsonFile(testText, testFile) as Record<string, unknown>;
  const expect = expecter(testFile);
  const numbers = {} as Record<keyof typeof QUEUE_NUMBERS, number>;
  for (const [k, r] of Object.entries(QUEUE_NUMBERS) as [keyof typeof QUEUE_NUMBERS, NumberRange][]) {
    const v = t[k];
    expect(typeof v === 'number' && v >= r.min && v <= r.max && (r.integer === false || Number.isInteger(v)), k, rangeText(r), v);
    numbers[k] = v as number;
  }
  const persistence = t['redisPersistence'];
  expect(persistence === undefined || isOneOf(REDIS_PERSISTENCE, persistence), 'redisPersistence', REDIS_PERSISTENCE.join(' | '), persistence);
  const plan = parseJsonFile(planText, planFile);
  parseQueuePlanWindows(planText, planFile);
  let windows: QueueWindow[];
  try {
    windows = parseQueueScript(JSON.stringify((plan as Record<string, unknown>)['stalls']), numbers.timeLimitS);
  } catch (err) {
    throw new RunFileError(planFile, `its \`stalls\` are not windows a queue run takes: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  return {
    backend: test.backend,
    client: test.client,
    resource: test.resource,
    nemesis: test.nemesis,
    ...numbers,
    seed: test.seed,
    resultsDir,
    ...(persistence !== undefined ? { redisPersistence: persistence as RedisPersistence } : {}),
    windows,
  };
}
