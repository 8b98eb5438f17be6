/**
 * A queue run's outcome: untested is not safe. A valid history whose stalls never struck, or in which the
 * queue never handed a job out twice, is untested with the reason; a redelivery whose late effect the
 * resource refused is safe, with the redelivery and the refusal as evidence; a duplicate is unsafe; a
 * broken protocol line makes a valid run unknown; a run in which no job was enqueued is never valid.
 */
import { describe, expect, it } from 'vitest';
import type { History, Op, Value } from '../../core/history/op.js';
import { queueResults } from '../../core/queue/queue-outcome.js';

/** A queue history from steps: [process, type, f, value, extra?]. */
function history(steps: [number | 'nemesis', Op['type'], string, Value, Record<string, Value>?][]): History {
  return steps.map(([process, type, f, value, extra], index) => ({ index, time: index * 1000, process, type, f, value, ...(extra ?? {}) }));
}

const enqueue = (job: number): [number, Op['type'], string, Value][] => [
  [0, 'invoke', 'enqueue', job],
  [0, 'ok', 'enqueue', job],
];
const delivery = (p: number, job: number, attempt: number, effect: 'ok' | 'rejected'): [number, Op['type'], string, Value, Record<string, Value>?][] => [
  [p, 'invoke', 'take', null],
  [p, 'ok', 'take', { job, attempt }],
  [p, 'invoke', 'effect', { job, attempt }],
  effect === 'ok' ? [p, 'ok', 'effect', { job, attempt }] : [p, 'fail', 'effect', { job, attempt }, { outcome: 'rejected' }],
];
const pause: [number | 'nemesis', Op['type'], string, Value][] = [
  ['nemesis', 'invoke', 'pause', { worker: 'w1', pid: 1 }],
  ['nemesis', 'info', 'pause', { worker: 'w1', pid: 1 }],
];
const final = (done: { job: number; attempt: number }[]): [number, Op['type'], string, Value][] => [
  [99, 'invoke', 'final-read', null],
  [99, 'ok', 'final-read', { done: done.map((d) => ({ ...d, worker: `w${d.attempt}` })), counter: done.length }],
];

describe('queue outcome', () => {
  it('a redelivered job whose late effect was refused: safe, with the evidence', () => {
    const r = queueResults(
      history([...enqueue(1), ...pause, ...delivery(1, 1, 1, 'rejected'), ...delivery(2, 1, 2, 'ok'), ...final([{ job: 1, attempt: 2 }])]),
      1,
      10,
      [],
    );
    expect(r.outcome).toBe('safe');
    expect(r.evidence.faults.applied).toBe(1);
    expect(r.evidence.protection).toEqual({ doubleHolds: 1, refusals: 1 });
  });

  it('a redelivered job whose effect landed twice: unsafe', () => {
    const done = [
      { job: 1, attempt: 2 },
      { job: 1, attempt: 1 },
    ];
    const r = queueResults(history([...enqueue(1), ...pause, ...delivery(1, 1, 1, 'ok'), ...delivery(2, 1, 2, 'ok'), ...final(done)]), 1, 10, []);
    expect(r.outcome).toBe('unsafe');
    expect(r.valid).toBe(false);
    // Named as a person looks for them: each landed effect's attempt and worker, from the resource's records.
    expect(r.checkers[0]!.anomalies[0]!.message).toBe("job 1's effect landed 2 times (attempt 2 by w2, attempt 1 by w1)");
  });

  it('untested, with the reason: no fault asked, none struck, or no redelivery', () => {
    const quiet = [...enqueue(1), ...delivery(1, 1, 1, 'ok'), ...final([{ job: 1, attempt: 1 }])];
    expect(queueResults(history(quiet), 0, 10, []).untestedWhy).toMatch(/no fault was asked for/);
    expect(queueResults(history(quiet), 2, 10, []).untestedWhy).toMatch(/none of the 2 fault window/);
    const r = queueResults(history([...enqueue(1), ...pause, ...delivery(1, 1, 1, 'ok'), ...final([{ job: 1, attempt: 1 }])]), 1, 10, []);
    expect(r.outcome).toBe('untested');
    expect(r.untestedWhy).toMatch(/never handed a job out twice/);
  });

  it("a kill of the queue's server that took effect is the danger itself: nothing lost and nothing redelivered is safe; a failed kill is not evidence", () => {
    const killed: [number | 'nemesis', Op['type'], string, Value][] = [
      ['nemesis', 'invoke', 'kill', { node: 'redis1' }],
      ['nemesis', 'info', 'kill', { node: 'redis1' }],
      ['nemesis', 'invoke', 'restart', { node: 'redis1' }],
      ['nemesis', 'info', 'restart', { node: 'redis1' }],
    ];
    const survived = queueResults(history([...enqueue(1), ...killed, ...delivery(1, 1, 1, 'ok'), ...final([{ job: 1, attempt: 1 }])]), 1, 10, []);
    expect(survived.outcome).toBe('safe');
    expect(survived.evidence.faults.applied).toBe(1);
    const lost = queueResults(history([...enqueue(1), ...enqueue(2), ...killed, ...delivery(1, 1, 1, 'ok'), ...final([{ job: 1, attempt: 1 }])]), 1, 10, []);
    expect(lost.outcome).toBe('unsafe');
    expect(lost.checkers[0]!.anomalies.some((a) => a.kind === 'lost-job')).toBe(true);
    const failedKill = history([
      ...enqueue(1),
      ['nemesis', 'invoke', 'kill', { node: 'redis1' }],
      ['nemesis', 'info', 'kill', { node: 'redis1' }, { error: 'no such process' }],
      ...delivery(1, 1, 1, 'ok'),
      ...final([{ job: 1, attempt: 1 }]),
    ]);
    expect(queueResults(failedKill, 1, 10, []).outcome).toBe('untested');
  });

  it('a protocol violation makes a valid run unknown; no job enqueued is never valid', () => {
    const r = queueResults(
      history([...enqueue(1), ...pause, ...delivery(1, 1, 1, 'rejected'), ...delivery(2, 1, 2, 'ok'), ...final([{ job: 1, attempt: 2 }])]),
      1,
      10,
      ['w1: not JSON'],
    );
    expect(r.outcome).toBe('unknown');
    expect(r.checkers.map((c) => c.checker)).toContain('queue-protocol');
    const empty = queueResults(history([...pause, ...final([])]), 1, 10, []);
    expect(empty.valid).toBe('unknown');
    expect(empty.outcome).toBe('unknown');
  });
});
