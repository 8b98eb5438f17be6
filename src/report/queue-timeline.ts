/**
 * What a queue run's report draws (pure): one lane per worker, each delivery of a
 * job as a bar from its take to its completion (the effect a mark on it, accepted,
 * refused or unknown), the fault windows (a worker stalled or killed, the queue's
 * server killed) as shaded spans, and the jobs whose effect landed twice, each with
 * its deliveries in order, the story of the report.
 *
 * Read from the history alone, as the checker reads it: a delivery is one process's
 * take, effect and complete (src/run/run-queue-test.ts gives each delivery a process of
 * its own); the nemesis's ops are paired by their victim, start with stop.
 */
import type { History, Op, Value } from '../../core/history/op.js';
import { isValueRecord } from '../../core/history/op.js';

export type EffectMark = 'accepted' | 'refused' | 'unknown' | 'failed' | 'none';

export interface QueueDelivery {
  process: number;
  worker: string;
  job: string;
  attempt: number;
  /** ns since the start, as the history's `time`. */
  take: number;
  effect: { at: number; mark: EffectMark } | undefined;
  /** The completion's answer: ok, refused (with the queue's error), or none (the worker never answered). */
  complete: { at: number; ok: boolean; error?: string } | undefined;
  /** Where the bar ends: the completion's answer, else the delivery's last op. */
  end: number;
}

export interface QueueFaultSpan {
  kind: 'stall' | 'worker killed' | 'worker cut off' | 'worker link delayed' | 'server killed';
  /** The worker's name, or the server node's. */
  victim: string;
  start: number;
  /** Undefined when the window never closed in the history. */
  end: number | undefined;
}

export interface QueueTimeline {
  workers: string[];
  deliveries: QueueDelivery[];
  faults: QueueFaultSpan[];
  /** Jobs the resource's final read holds two or more done records of (total-queue's duplicates), each delivery of them in take order. */
  duplicated: { job: string; deliveries: QueueDelivery[] }[];
  start: number;
  end: number;
}

const STARTS: Record<string, { kind: QueueFaultSpan['kind']; stop: string }> = {
  pause: { kind: 'stall', stop: 'resume' },
  'kill:worker': { kind: 'worker killed', stop: 'start' },
  'kill:node': { kind: 'server killed', stop: 'restart' },
  'start-partition': { kind: 'worker cut off', stop: 'stop-partition' },
  'start-delay': { kind: 'worker link delayed', stop: 'stop-delay' },
};

export function queueTimeline(history: History): QueueTimeline {
  const byProcess = new Map<number, Op[]>();
  const faults: QueueFaultSpan[] = [];
  const open = new Map<string, QueueFaultSpan>();
  for (const op of history) {
    if (op.process === 'nemesis') {
      if (op.type === 'invoke') nemesisOp(op, faults, open);
      continue;
    }
    if (typeof op.process !== 'number') continue;
    const list = byProcess.get(op.process) ?? [];
    list.push(op);
    byProcess.set(op.process, list);
  }
  const deliveries: QueueDelivery[] = [];
  for (const [process, ops] of byProcess) {
    const d = deliveryOf(process, ops);
    if (d) deliveries.push(d);
  }
  deliveries.sort((a, b) => a.take - b.take);
  const workers = [...new Set(deliveries.map((d) => d.worker))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  // The history is in time order: its first and last ops bound the timeline.
  const start = history[0]?.time ?? 0;
  const end = history.at(-1)?.time ?? 0;
  return { workers, deliveries, faults, duplicated: duplicatedJobs(deliveries, history), start, end };
}

function nemesisOp(op: Op, faults: QueueFaultSpan[], open: Map<string, QueueFaultSpan>): void {
  const v = isValueRecord(op.value) ? op.value : {};
  const worker = typeof v['worker'] === 'string' ? v['worker'] : undefined;
  const node = typeof v['node'] === 'string' ? v['node'] : undefined;
  const victim = worker ?? node;
  if (victim === undefined) return;
  const key = op.f === 'kill' ? `kill:${worker !== undefined ? 'worker' : 'node'}` : op.f;
  const start = STARTS[key];
  if (start !== undefined) {
    const span: QueueFaultSpan = { kind: start.kind, victim, start: op.time, end: undefined };
    faults.push(span);
    open.set(`${start.stop}:${victim}`, span);
    return;
  }
  const span = open.get(`${op.f}:${victim}`);
  if (span !== undefined) {
    span.end = op.time;
    open.delete(`${op.f}:${victim}`);
  }
}

function deliveryOf(process: number, ops: Op[]): QueueDelivery | undefined {
  const take = ops.find((op) => op.f === 'take' && op.type === 'ok');
  if (take === undefined || !isValueRecord(take.value)) return undefined;
  const worker = typeof take['worker'] === 'string' ? take['worker'] : `p${process}`;
  const effectDone = ops.find((op) => op.f === 'effect' && op.type !== 'invoke');
  const completeDone = ops.find((op) => op.f === 'complete' && op.type !== 'invoke');
  return {
    process,
    worker,
    job: shown(take.value['job']),
    attempt: typeof take.value['attempt'] === 'number' ? take.value['attempt'] : 0,
    take: take.time,
    effect: effectDone ? { at: effectDone.time, mark: markOf(effectDone) } : undefined,
    complete: completeDone
      ? { at: completeDone.time, ok: completeDone.type === 'ok', ...(typeof completeDone.error === 'string' ? { error: completeDone.error } : {}) }
      : undefined,
    end: completeDone ? completeDone.time : Math.max(...ops.map((op) => op.time)),
  };
}

function markOf(op: Op): EffectMark {
  if (op.type === 'ok') return 'accepted';
  if (op.type === 'info') return 'unknown';
  return op['outcome'] === 'rejected' || op.error === 'rejected' ? 'refused' : 'failed';
}

function duplicatedJobs(deliveries: readonly QueueDelivery[], history: History): QueueTimeline['duplicated'] {
  const final = history.findLast((op) => op.f === 'final-read' && op.type === 'ok');
  const done = isValueRecord(final?.value) && Array.isArray(final.value['done']) ? final.value['done'] : [];
  const records = new Map<string, number>();
  for (const r of done) if (isValueRecord(r)) records.set(shown(r['job']), (records.get(shown(r['job'])) ?? 0) + 1);
  return [...records].filter(([, n]) => n > 1).map(([job]) => ({ job, deliveries: deliveries.filter((d) => d.job === job) }));
}

function shown(v: Value | undefined): string {
  return typeof v === 'string' ? v : JSON.stringify(v ?? null);
}
