/**
 * test.json: every option of a run, then what the run found out (its name,
 * start time, versions, the replay command, and whether it was interrupted),
 * docs/run-directory.md. The writer's type (`TestJson`) and the reader's
 * (`StoredTest`) live together.
 *
 * A test.json is read by people and by tools: the reader requires the fields
 * that say which run this is (name, backend, resource, workload, seed) and
 * checks the type of every other known field that is present, naming the
 * first bad one. Unknown fields pass through (the report shows them).
 */
import type { ClientCrash } from '../checkers/lock/evidence.js';
import type { LockWorkload } from '../checkers/lock/verdict.js';
import { REDIS_PERSISTENCE } from '../plan/redis-persistence.js';
import type { Value } from '../history/op.js';
import { FAULT_KINDS } from '../generator/faults/registry.js';
import type { RunOptions } from '../plan/run-options.js';
import { LOCK_BACKENDS, RESOURCE_MODES, WORKLOADS, type LockBackend, type ResourceMode } from '../vocabulary.js';
import { expecter, isNumber, isObject, isOneOf, parseJsonFile, RunFileError, type Expect } from './run-file-error.js';
import { RUN_FILES } from './run-files.js';
import { CLIENT_TOKEN_KINDS, type ClientTokenKind } from '../client-protocol.js';
import type { ProtocolViolation } from '../client-protocol.js';
import type { ClusterRecord } from './cluster-record.js';

export const TEST_FILE = RUN_FILES.test;

/** A run stopped by a signal before it finished: which, and when (ISO time). */
export interface Interrupted {
  signal: string;
  at: string;
}

/** What a run writes. */
export type TestJson = RunOptions & {
  name: string;
  startedAt: string;
  /** fencecheck, Node, the servers' packages and the client libraries. */
  versions: Record<string, string>;
  /** The command line that replays this run. */
  replay: string;
  interrupted?: Interrupted;
  /** A named scenario's run: its row, the rows it serves, its seed (`fencecheck scenario`). */
  scenario?: ScenarioStamp;
  /** A run with --client: the token kind the client announced, and its protocol violations (docs/client-protocol.md). */
  clientToken?: ClientTokenKind;
  clientViolations?: ProtocolViolation[];
  /** Every run: the client processes, built-in or foreign, that died without being asked (core/checkers/lock/evidence.ts). */
  clientCrashes?: ClientCrash[];
  /** The cluster it ran on: fresh or reused from a warm pool, after how many runs, the reset and its clean check (absent in files before it). */
  cluster?: ClusterRecord;
  /** The history's time (ns) at which the main phase began: the plan's time 0, where its windows' `at` count from (absent in files before it). */
  mainStartNs?: number;
};

export interface ScenarioStamp {
  run: string;
  rows: string[];
  seed: number;
}

/** test.json as read back: which run it is, for certain; every other field as written (checked when known). */
export interface StoredTest {
  name: string;
  backend: LockBackend;
  resource: ResourceMode;
  workload: LockWorkload;
  seed: number;
  [field: string]: Value;
}

const POSITIVE = ['timeLimitS', 'clients', 'ttlMs', 'rate', 'callTimeoutMs'] as const;
// --hold-ms 0 is a run (RUN_RANGES): its test.json must read back.
const NON_NEGATIVE = ['holdMs', 'intervalMs', 'durationMs', 'recoverMs', 'idleTxTimeoutMs'] as const;
const STRINGS = ['nemesisTarget', 'resultsDir'] as const;

/**
 * The run options' fields as test.json and plan.json hold them: which run it
 * is (backend, resource, workload, seed) required, every other known option
 * type-checked when present. `expect` names the field (plan.json prefixes it).
 */
export function expectRunOptionFields(t: Record<string, unknown>, expect: Expect): void {
  expect(isOneOf(LOCK_BACKENDS, t['backend']), 'backend', `one of ${LOCK_BACKENDS.join(', ')}`, t['backend']);
  expect(isOneOf(RESOURCE_MODES, t['resource']), 'resource', `one of ${RESOURCE_MODES.join(', ')}`, t['resource']);
  expect(isOneOf(WORKLOADS, t['workload']), 'workload', `one of ${WORKLOADS.join(', ')}`, t['workload']);
  expect(Number.isSafeInteger(t['seed']), 'seed', 'an integer', t['seed']);
  const present = (k: string): boolean => t[k] !== undefined;
  if (present('nemesis')) {
    const n = t['nemesis'];
    expect(Array.isArray(n) && n.every((f) => isOneOf(FAULT_KINDS, f)), 'nemesis', `a list of ${FAULT_KINDS.join(', ')}`, n);
  }
  for (const k of POSITIVE) if (present(k)) expect(isNumber(t[k]) && t[k] > 0, k, 'a positive number', t[k]);
  for (const k of NON_NEGATIVE) if (present(k)) expect(isNumber(t[k]) && t[k] >= 0, k, 'a number >= 0', t[k]);
  for (const k of STRINGS) if (present(k)) expect(typeof t[k] === 'string', k, 'a string', t[k]);
  if (present('redisPersistence'))
    expect(isOneOf(REDIS_PERSISTENCE, t['redisPersistence']), 'redisPersistence', `one of ${REDIS_PERSISTENCE.join(', ')}`, t['redisPersistence']);
  if (present('checkHold')) expect(typeof t['checkHold'] === 'boolean', 'checkHold', 'true or false', t['checkHold']);
  if (present('client')) expect(typeof t['client'] === 'string', 'client', 'a command line', t['client']);
}

export function parseTestJson(text: string, file: string): StoredTest {
  const json = parseJsonFile(text, file);
  const expect = expecter(file);
  expect(isObject(json), '(top level)', 'an object', json);
  const t = json as Record<string, unknown>;
  // A queue run's directory (src/run/run-queue-test.ts) is sound, only not a lock run's: said as what it is.
  if (t['workload'] === 'queue')
    throw new RunFileError(
      file,
      "is a queue run's test.json (workload queue), which this command does not read: it reads a lock run's directory",
      undefined,
      '`fencecheck check RUN_DIR` judges a queue run again and `fencecheck report RUN_DIR` draws it; hunt, shrink and compare do not take one yet (docs/queues.md).',
    );
  expect(typeof t['name'] === 'string' && t['name'] !== '', 'name', 'the name of the test', t['name']);
  expectRunOptionFields(t, expect);
  const present = (k: string): boolean => t[k] !== undefined;
  for (const k of ['startedAt', 'replay'] as const) if (present(k)) expect(typeof t[k] === 'string', k, 'a string', t[k]);
  if (present('versions')) expect(isObject(t['versions']), 'versions', 'an object', t['versions']);
  if (present('interrupted')) {
    const i = t['interrupted'];
    expect(isObject(i) && typeof i['signal'] === 'string' && typeof i['at'] === 'string', 'interrupted', '{ signal, at } strings', i);
  }
  if (present('clientToken')) expect(isOneOf(CLIENT_TOKEN_KINDS, t['clientToken']), 'clientToken', `one of ${CLIENT_TOKEN_KINDS.join(', ')}`, t['clientToken']);
  if (present('clientViolations')) {
    const v = t['clientViolations'];
    const isViolation = (x: unknown): boolean =>
      isObject(x) &&
      typeof x['client'] === 'string' &&
      typeof x['problem'] === 'string' &&
      Array.isArray(x['stderrTail']) &&
      x['stderrTail'].every((l) => typeof l === 'string');
    expect(Array.isArray(v) && v.every(isViolation), 'clientViolations', 'a list of { client, problem, stderrTail }', v);
  }
  if (present('clientCrashes')) {
    const v = t['clientCrashes'];
    const isCrash = (x: unknown): boolean =>
      isObject(x) &&
      typeof x['client'] === 'string' &&
      typeof x['exit'] === 'string' &&
      Array.isArray(x['stderrTail']) &&
      x['stderrTail'].every((l) => typeof l === 'string');
    expect(Array.isArray(v) && v.every(isCrash), 'clientCrashes', 'a list of { client, exit, stderrTail }', v);
  }
  if (present('mainStartNs'))
    expect(
      Number.isSafeInteger(t['mainStartNs']) && (t['mainStartNs'] as number) >= 0,
      'mainStartNs',
      "a non-negative integer (ns on the history's clock)",
      t['mainStartNs'],
    );
  if (present('cluster'))
    expect(
      isClusterRecord(t['cluster']),
      'cluster',
      '{ fresh, reusedAfterRuns, startMs, resetMs, cleanCheck: { ok, problems, ms } | null, logsDir, clientsFromSpares? }',
      t['cluster'],
    );
  if (present('scenario')) {
    const x = t['scenario'];
    expect(
      isObject(x) &&
        typeof x['run'] === 'string' &&
        Array.isArray(x['rows']) &&
        x['rows'].every((r) => typeof r === 'string') &&
        Number.isSafeInteger(x['seed']),
      'scenario',
      '{ run, rows, seed }',
      x,
    );
  }
  return json as StoredTest;
}

function isClusterRecord(x: unknown): boolean {
  if (!isObject(x)) return false;
  const check = x['cleanCheck'];
  const checkOk =
    check === null ||
    (isObject(check) &&
      typeof check['ok'] === 'boolean' &&
      Array.isArray(check['problems']) &&
      check['problems'].every((p) => typeof p === 'string') &&
      isNumber(check['ms']));
  return (
    typeof x['fresh'] === 'boolean' &&
    Number.isSafeInteger(x['reusedAfterRuns']) &&
    (x['reusedAfterRuns'] as number) >= 0 &&
    isNumber(x['startMs']) &&
    isNumber(x['resetMs']) &&
    checkOk &&
    typeof x['logsDir'] === 'string' &&
    (x['freshBecause'] === undefined || typeof x['freshBecause'] === 'string') &&
    (x['clientsFromSpares'] === undefined || (Number.isSafeInteger(x['clientsFromSpares']) && (x['clientsFromSpares'] as number) > 0))
  );
}
