/**
 * Shrinking a failing queue run's plan (pure over an injected oracle), as
 * delta-debug.ts shrinks a lock run's: every candidate is a plan the queue
 * runner runs as it stands (`--script` windows and a few numbers), kept only
 * when the oracle says it still fails.
 *
 *   windows   ddmin over the fault windows
 *   time      (first: every later candidate runs at its length) open a
 *             window a second in, end a second past the last window's end,
 *             halve the time limit
 *   workers   down to two, then one fewer at a time (a kill's restart can
 *             take its own job again: one worker may be enough)
 *   lengths   a kill's down time at the floor at once; halve a window (a
 *             stall, a cut, a down time), halve a delay window's delay
 *   rate      halve the jobs a second per worker
 *
 * Fewer workers before shorter windows: the summary line counts windows and
 * workers, not lengths, and a shrink's candidates are few. Opening a window
 * earlier is one candidate, not a halving series: each costs real runs.
 */
import type { QueueWindow, WindowFault } from '../../core/queue/queue-window.js';
import { FLOOR, shrinkByTransforms } from './delta-debug.js';

/** The choices of a queue plan that shrinking may change. */
export interface QueueShrinkPlan {
  windows: QueueWindow[];
  workers: number;
  timeLimitS: number;
  rate: number;
}

/** Windows whose length is a down time (a worker's or the server's), not the fault's force. */
const KILLS: readonly WindowFault[] = ['kill', 'effect-kill', 'server-kill'];

/** The earliest a window is moved to: a second in, once the first jobs are enqueued and taken. */
const EARLIEST_MS = 1000;

type Transform = (p: QueueShrinkPlan) => QueueShrinkPlan | undefined;

/** Windows a plan can have that a transform reaches one by one (a longer plan still gets ddmin and the others). */
const MAX_WINDOW_STEPS = 8;

export function shrinkQueuePlan(start: QueueShrinkPlan, oracle: (p: QueueShrinkPlan) => Promise<boolean>, maxCandidates = 40) {
  return shrinkByTransforms(start, { items: (p) => p.windows, withItems: (p, windows) => ({ ...p, windows }) }, queueTransforms(), oracle, maxCandidates);
}

/**
 * The changes that may make a rare queue failure show more often, tried first when it is rare (as delta-debug's
 * boosts): each window twice as long within the run (a longer stall, cut or down time), a delay twice as
 * wide, one worker fewer (down to two: a re-run needs another worker to take the job).
 */
export function queueBoosts(p: QueueShrinkPlan): [string, QueueShrinkPlan | undefined][] {
  const limitMs = p.timeLimitS * 1000;
  const at = (i: number, w: QueueWindow | undefined): QueueShrinkPlan | undefined =>
    w === undefined ? undefined : { ...p, windows: p.windows.map((x, j) => (j === i ? w : x)) };
  return [
    ...p.windows.flatMap((w, i): [string, QueueShrinkPlan | undefined][] => {
      const durationMs = Math.min(limitMs - w.atMs, 2 * w.durationMs);
      return [
        [`lengthen window ${i + 1}`, at(i, durationMs > w.durationMs ? { ...w, durationMs } : undefined)],
        [`widen the delay of window ${i + 1}`, at(i, w.delayMs !== undefined ? { ...w, delayMs: 2 * w.delayMs } : undefined)],
      ];
    }),
    ['one worker fewer', p.workers > 2 ? { ...p, workers: p.workers - 1 } : undefined],
  ];
}

function queueTransforms(): [string, Transform][] {
  const halveWindow = Array.from({ length: MAX_WINDOW_STEPS }, (_, i): [string, Transform] => [
    `halve the length of window ${i + 1}`,
    (p) => {
      const w = p.windows[i];
      if (w === undefined || w.durationMs < 2 * FLOOR.windowMs) return undefined;
      return { ...p, windows: p.windows.map((x, j) => (j === i ? { ...x, durationMs: Math.round(x.durationMs / 2) } : x)) };
    },
  ]);
  const earlier = Array.from({ length: MAX_WINDOW_STEPS }, (_, i): [string, Transform] => [
    `open window ${i + 1} earlier`,
    (p) => {
      const w = p.windows[i];
      const atMs = Math.max(EARLIEST_MS, p.windows[i - 1]?.atMs ?? 0);
      if (w === undefined || atMs >= w.atMs) return undefined;
      return { ...p, windows: p.windows.map((x, j) => (j === i ? { ...x, atMs } : x)) };
    },
  ]);
  // A kill's window is its victim's down time, which rarely matters: one candidate at the floor before a halving series.
  const shortestKill = Array.from({ length: MAX_WINDOW_STEPS }, (_, i): [string, Transform] => [
    `shortest down time of window ${i + 1}`,
    (p) => {
      const w = p.windows[i];
      if (w === undefined || !KILLS.includes(w.fault) || w.durationMs <= FLOOR.windowMs) return undefined;
      return { ...p, windows: p.windows.map((x, j) => (j === i ? { ...x, durationMs: FLOOR.windowMs } : x)) };
    },
  ]);
  const halveDelay = Array.from({ length: MAX_WINDOW_STEPS }, (_, i): [string, Transform] => [
    `halve the delay of window ${i + 1}`,
    (p) => {
      const w = p.windows[i];
      if (w?.delayMs === undefined || w.delayMs < 2 * FLOOR.windowMs) return undefined;
      return { ...p, windows: p.windows.map((x, j) => (j === i ? { ...x, delayMs: Math.round(w.delayMs! / 2) } : x)) };
    },
  ]);
  // A shorter run first: every later candidate is re-run at its length (measured: a 30 s matrix run's shrink spent
  // its 6 candidates on workers and lengths and still ran 30 s each).
  return [
    ...earlier,
    ['end after the last window', endAfterLastWindow],
    ['halve the time limit', halveTime],
    ['two workers', (p) => (p.workers > 2 ? { ...p, workers: 2 } : undefined)],
    ['one worker fewer', (p) => (p.workers > 1 ? { ...p, workers: p.workers - 1 } : undefined)],
    ...shortestKill,
    ...halveWindow,
    ...halveDelay,
    ['halve the rate', (p) => (p.rate / 2 >= FLOOR.rate ? { ...p, rate: p.rate / 2 } : undefined)],
  ];
}

/** The time limit a second past the last window's end, at least the floor (the oracle decides whether jobs still meet it). */
function endAfterLastWindow(p: QueueShrinkPlan): QueueShrinkPlan | undefined {
  const lastEnd = Math.max(0, ...p.windows.map((w) => w.atMs + w.durationMs));
  const limitS = Math.max(FLOOR.timeLimitS, Math.ceil(lastEnd / 1000) + 1);
  return limitS < p.timeLimitS ? { ...p, timeLimitS: limitS } : undefined;
}

/** Half the time limit, the windows that open past it dropped (none left: no candidate). */
function halveTime(p: QueueShrinkPlan): QueueShrinkPlan | undefined {
  const limitS = Math.ceil(p.timeLimitS / 2);
  if (limitS < FLOOR.timeLimitS || limitS >= p.timeLimitS) return undefined;
  const windows = p.windows.filter((w) => w.atMs < limitS * 1000);
  return windows.length === 0 ? undefined : { ...p, timeLimitS: limitS, windows };
}

/** `1 window (pause 3000 ms), 2 workers, 6 s`: the summary line's plan half. */
export function describeQueueShrunk(p: QueueShrinkPlan): string {
  const kinds = p.windows.map((w) => `${w.fault} ${w.durationMs} ms${w.afterTakeMs !== undefined ? ` ${w.afterTakeMs} ms after a take` : ''}`).join(', ');
  return `${p.windows.length} fault window${p.windows.length === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}, ${p.workers} worker${p.workers === 1 ? '' : 's'}, ${p.timeLimitS} s`;
}
