/**
 * A queue run's fault window (pure): what it does (stall a worker, kill a
 * worker, kill the queue's server), when it opens and how long it lasts; and
 * `--script` for a queue run: the windows written out, so a shrunk or
 * hunted plan replays exactly, read back with every field checked (a bad
 * window is a UsageError, 254, naming the window and the field).
 */
import { UsageError } from '../errors.js';
import { parseStrictJson } from '../history/strict-json.js';
import { RUN_RANGES } from '../plan/run-options.js';

/**
 * What a fault window does (plan.json's reader takes these): stall the first worker to take a job once it
 * opens, kill it, cut it off from the queue's server, kill the first worker whose job's effect landed (before
 * it completes the job), kill the queue's server, or delay the first taker's link to the queue's server by
 * `delayMs` each way (a delay proxy).
 */
export const WINDOW_FAULTS = ['pause', 'kill', 'partition', 'effect-kill', 'server-kill', 'delay'] as const;
export type WindowFault = (typeof WINDOW_FAULTS)[number];

/** The --nemesis fault each window fault is (a plan's windows say which faults the run strikes). */
export const NEMESIS_OF_WINDOW = {
  pause: 'client-pause',
  kill: 'client-kill',
  partition: 'client-partition',
  'effect-kill': 'effect-kill',
  'server-kill': 'server-kill',
  delay: 'client-delay',
} as const satisfies Record<WindowFault, string>;

/**
 * The window faults that strike the first worker to take a job: those may open a while after its take
 * (`afterTakeMs`, a hunt's aim at the library's lock renewal, queue-libraries.ts renewal) instead of at once.
 */
export const TAKER_FAULTS: readonly WindowFault[] = ['pause', 'partition', 'delay'];

export interface QueueWindow {
  /** ms after the main phase starts when the window opens. */
  atMs: number;
  /** How long the stall, the worker's or the server's down time lasts, ms. */
  durationMs: number;
  fault: WindowFault;
  /** A delay window's delay on each packet of the worker's link to the queue's server, each way (delay windows only). */
  delayMs?: number;
  /**
   * How long after its take the fault strikes the worker (a pause, partition or delay window only; absent: at
   * the take). Aimed just before the library's first lock renewal, a stall shorter than the lock outlasts it.
   */
  afterTakeMs?: number;
}

const FLAG = '--script';
const HINT =
  'With --workload queue, give a JSON array of fault windows, e.g. [{"atMs":3000,"durationMs":4000,"fault":"pause"}] (fault: pause, kill, partition, effect-kill, server-kill, or delay with its delayMs; a pause, partition or delay window may add afterTakeMs; docs/queues.md).';

/** The windows as `--script` writes them. */
export function queueScriptText(windows: readonly QueueWindow[]): string {
  return JSON.stringify(
    windows.map((w) => ({
      atMs: w.atMs,
      durationMs: w.durationMs,
      fault: w.fault,
      ...(w.delayMs !== undefined ? { delayMs: w.delayMs } : {}),
      ...(w.afterTakeMs !== undefined ? { afterTakeMs: w.afterTakeMs } : {}),
    })),
  );
}

/** `--script` of a queue run: windows in the order they open, each within `timeLimitS`. */
export function parseQueueScript(text: string, timeLimitS: number): QueueWindow[] {
  let json: unknown;
  try {
    json = parseStrictJson(text);
  } catch (err) {
    throw new UsageError(`Expected \`${FLAG}\` to be JSON, got \`${text.slice(0, 60)}\` (${err instanceof Error ? err.message : String(err)})`, HINT);
  }
  if (!Array.isArray(json)) throw new UsageError(`Expected \`${FLAG}\` to be a JSON array of queue fault windows, got \`${text.slice(0, 60)}\``, HINT);
  const windows = json.map((w: unknown, i) => queueWindowOf(w, i + 1, timeLimitS));
  for (let i = 1; i < windows.length; i++)
    if (windows[i]!.atMs < windows[i - 1]!.atMs)
      throw new UsageError(
        `Expected \`${FLAG}\` window ${i + 1} \`atMs\` to be at least window ${i}'s (${windows[i - 1]!.atMs}), got \`${windows[i]!.atMs}\``,
        HINT,
      );
  return windows;
}

function queueWindowOf(w: unknown, n: number, timeLimitS: number): QueueWindow {
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new UsageError(`Expected \`${FLAG}\` window ${n} \`${field}\` to be ${expected}, got \`${JSON.stringify(got)}\``, HINT);
  };
  if (typeof w !== 'object' || w === null || Array.isArray(w)) return bad('(window)', 'an object { atMs, durationMs, fault }', w);
  const o = w as Record<string, unknown>;
  const delay = o['fault'] === 'delay';
  const taker = (TAKER_FAULTS as readonly unknown[]).includes(o['fault']);
  const fields = ['atMs', 'durationMs', 'fault', ...(delay ? ['delayMs'] : []), ...(taker ? ['afterTakeMs'] : [])];
  for (const k of Object.keys(o))
    if (!fields.includes(k))
      bad(k, `absent (a window has atMs, durationMs and fault${delay ? ', a delay window delayMs' : ''}${taker ? ', and optionally afterTakeMs' : ''})`, o[k]);
  const horizonMs = timeLimitS * 1000;
  const atMs = o['atMs'];
  if (!Number.isSafeInteger(atMs) || (atMs as number) < 0 || (atMs as number) >= horizonMs)
    bad('atMs', `a whole number of ms from 0 to below the time limit (${horizonMs})`, atMs);
  const durationMs = o['durationMs'];
  const range = RUN_RANGES.durationMs;
  if (!Number.isSafeInteger(durationMs) || (durationMs as number) < range.min || (durationMs as number) > range.max)
    bad('durationMs', `a whole number of ms from ${range.min} to ${range.max}`, durationMs);
  const fault = o['fault'];
  if (!(WINDOW_FAULTS as readonly unknown[]).includes(fault)) bad('fault', `one of ${WINDOW_FAULTS.join(', ')}`, fault);
  const window: QueueWindow = { atMs: atMs as number, durationMs: durationMs as number, fault: fault as WindowFault };
  if (delay) {
    const delayMs = o['delayMs'];
    if (!Number.isSafeInteger(delayMs) || (delayMs as number) < 1 || (delayMs as number) > range.max)
      bad('delayMs', `a whole number of ms from 1 to ${range.max} (a delay window's delay each way)`, delayMs);
    window.delayMs = delayMs as number;
  }
  if (o['afterTakeMs'] !== undefined) {
    const afterTakeMs = o['afterTakeMs'];
    if (!Number.isSafeInteger(afterTakeMs) || (afterTakeMs as number) < 0 || (afterTakeMs as number) > range.max)
      bad('afterTakeMs', `a whole number of ms from 0 to ${range.max} (how long after its take the worker is struck)`, afterTakeMs);
    window.afterTakeMs = afterTakeMs as number;
  }
  return window;
}
