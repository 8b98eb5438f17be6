/**
 * A queue run's test.json and plan.json read back (pure), for `fencecheck check RUN_DIR`
 * on a queue run: which run it is (workload queue, the queue's server, the resource mode,
 * the faults, the seed), checked; and how many fault windows its plan held, which the
 * outcome needs ("none of the N windows struck"). A file that does not fit is a
 * RunFileError (254) naming the field.
 */
import { expecter, isObject, isOneOf, parseJsonFile } from '../run-files/run-file-error.js';
import { QUEUE_MODES, type QueueMode, type QueueServer } from './queue-libraries.js';
import { QUEUE_FAULTS, QUEUE_SERVERS, type QueueFault } from './queue-options.js';
import { WINDOW_FAULTS } from './queue-plan.js';

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
