/**
 * The queue checker against a queue whose truth the test knows (seeded): a
 * producer enqueues jobs (ok, failed, indeterminate), a queue delivers each
 * one, some twice or more (a stalled worker's job run again), some never (a
 * lost job), each delivery's effect meets the resource under one of the modes
 * (`none`: every effect lands; `idempotent`: the job's id is the key, the first
 * lands; `attempt-fence`: an effect of an attempt below one already accepted is
 * refused), completions are sometimes refused for a missing lock, and the
 * counter sometimes loses an increment. The history is written from that
 * truth, and the checker must give back exactly the truth's counts. Malformed
 * queue ops are refused at their op (254), never judged.
 */
import { describe, expect, it } from 'vitest';
import { checkQueue, type QueueCounts } from '../../core/checkers/queue/total-queue.js';
import { QueueHistoryError } from '../../core/checkers/queue/queue-ops.js';
import type { History, Op, Value } from '../../core/history/op.js';
import { Prng } from '../../core/random/prng.js';
import { testSeed } from '../support/seed.js';

type Mode = 'none' | 'idempotent' | 'attempt-fence';

/** What the checker must count: every count but the phantom increments, which this queue never makes. */
type Truth = Omit<QueueCounts, 'phantomIncrements'>;

/** A history and the counts it must give, from one seeded queue. */
function queueRun(rng: Prng, mode: Mode, withFinal = true): { history: History; truth: Truth } {
  const ops: Op[] = [];
  let time = 0;
  const add = (process: number, type: Op['type'], f: string, value: Value, extra: Record<string, Value> = {}): void => {
    ops.push({ index: ops.length, time: (time += rng.int(1, 1000)), process, type, f, value, ...extra });
  };
  const jobs = rng.int(1, 40);
  const truth: Truth = {
    attempted: jobs,
    enqueued: 0,
    done: 0,
    duplicated: 0,
    lost: 0,
    recovered: 0,
    unexpected: 0,
    redelivered: 0,
    wasted: 0,
    missingLock: 0,
    lostIncrements: 0,
  };
  const done: { job: Value; attempt: number; worker: number }[] = [];
  const workers = rng.int(1, 4);
  let counter = 0;
  for (let j = 1; j <= jobs; j++) {
    // Ids as a user's queue gives them: integers, or strings ("7" and 7 are different jobs).
    const id: Value = rng.float() < 0.5 ? j : `job-${j}`;
    add(0, 'invoke', 'enqueue', id);
    const r = rng.float();
    const enqueue = r < 0.1 ? 'fail' : r < 0.2 ? 'info' : 'ok';
    add(0, enqueue, 'enqueue', id);
    if (enqueue === 'ok') truth.enqueued++;
    if (enqueue === 'fail') continue;
    // ok: lost now and then; info: delivered (recovered) or not at all.
    const deliveries = enqueue === 'ok' && rng.float() < 0.1 ? 0 : enqueue === 'info' && rng.float() < 0.5 ? 0 : rng.float() < 0.3 ? rng.int(2, 3) : 1;
    if (deliveries > 1) truth.redelivered++;
    let landed = 0;
    let highest = -1;
    // Attempts are numbered in delivery order; their effects run in any order (the stalled first worker writes last).
    const attempts = Array.from({ length: deliveries }, (_, i) => i + 1);
    const effectOrder = rng.float() < 0.5 ? attempts : [...attempts].reverse();
    for (const attempt of attempts) {
      const w = 1 + rng.int(0, workers - 1);
      add(w, 'invoke', 'take', null);
      add(w, 'ok', 'take', { job: id, attempt });
    }
    for (const attempt of effectOrder) {
      const w = 1 + rng.int(0, workers - 1);
      add(w, 'invoke', 'effect', { job: id, attempt });
      const accepted = mode === 'none' || (mode === 'idempotent' ? landed === 0 : attempt > highest);
      if (accepted) {
        landed++;
        highest = Math.max(highest, attempt);
        done.push({ job: id, attempt, worker: w });
        counter++;
        if (rng.float() < 0.05) {
          counter--;
          truth.lostIncrements++;
        }
        add(w, 'ok', 'effect', { job: id, attempt }, { outcome: 'accepted' });
      } else {
        truth.wasted++;
        add(w, 'fail', 'effect', { job: id, attempt }, { outcome: 'rejected', error: 'fenced' });
      }
      add(w, 'invoke', 'complete', { job: id, attempt });
      if (rng.float() < 0.2) {
        truth.missingLock++;
        add(w, 'fail', 'complete', { job: id, attempt }, { error: 'missing-lock' });
      } else add(w, 'ok', 'complete', { job: id, attempt });
    }
    if (landed > 0) truth.done++;
    if (landed > 1) truth.duplicated++;
    if (landed === 0 && enqueue === 'ok') truth.lost++;
    if (landed > 0 && enqueue === 'info') truth.recovered++;
  }
  if (rng.float() < 0.1) {
    // A done record of a job nobody enqueued: the resource contradicts the producer.
    done.push({ job: 'never-enqueued', attempt: 1, worker: 1 });
    counter++;
    truth.unexpected++;
  }
  if (withFinal) {
    add(9, 'invoke', 'final-read', null);
    add(9, 'ok', 'final-read', { done, counter });
  }
  return { history: ops, truth };
}

describe('the queue checker (total-queue)', () => {
  it('gives back the counts of a queue whose truth is known, in every resource mode', () => {
    const rng = new Prng(testSeed('total-queue truth', 'test/checkers/total-queue.test.ts'));
    const seen = { duplicated: 0, lost: 0, wasted: 0, valid: 0, invalid: 0 };
    for (let i = 0; i < 600; i++) {
      const mode = rng.pick(['none', 'idempotent', 'attempt-fence'] as const);
      const { history, truth } = queueRun(rng.fork(`run-${i}`), mode);
      const v = checkQueue(history);
      const { duplicatedPerThousandLow: _low, duplicatedPerThousandHigh: _high, phantomIncrements, ...counts } = v.stats!;
      expect({ ...counts }, `run ${i} (${mode})`).toEqual({ ...truth });
      expect(phantomIncrements).toBe(0);
      const broken = truth.duplicated + truth.lost + truth.unexpected + truth.lostIncrements > 0;
      // A run in which no job was enqueued ok tested nothing: unknown, never valid.
      expect(v.valid, `run ${i}: ${v.summary}`).toBe(broken ? false : truth.enqueued === 0 ? 'unknown' : true);
      // The job's id as the key lets one effect land; an attempt fence only refuses an attempt older than one accepted (a later re-run still lands).
      if (mode === 'idempotent') expect(truth.duplicated, `run ${i}: idempotent lets no effect land twice`).toBe(0);
      seen.duplicated += truth.duplicated;
      seen.lost += truth.lost;
      seen.wasted += truth.wasted;
      seen[broken ? 'invalid' : 'valid']++;
    }
    // The batch showed each thing it judges, both verdicts included.
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(10);
  });

  it('without a final read: a duplicate the history proves is still INVALID, otherwise unknown (never valid)', () => {
    const rng = new Prng(testSeed('total-queue no final read', 'test/checkers/total-queue.test.ts'));
    let unknown = 0;
    let invalid = 0;
    for (let i = 0; i < 200; i++) {
      const { history, truth } = queueRun(rng.fork(`run-${i}`), 'none', false);
      const v = checkQueue(history);
      expect(v.valid, `run ${i}: ${v.summary}`).toBe(truth.duplicated > 0 ? false : 'unknown');
      if (v.valid === 'unknown') unknown++;
      else invalid++;
    }
    expect(unknown).toBeGreaterThan(3);
    expect(invalid).toBeGreaterThan(50);
  });

  it('rates duplicates per 1,000 jobs with an interval that holds the measured rate', () => {
    const rng = new Prng(testSeed('total-queue rate', 'test/checkers/total-queue.test.ts'));
    const { history } = queueRun(rng, 'none');
    const s = checkQueue(history).stats!;
    const rate = s['done']! === 0 ? 0 : (1000 * s['duplicated']!) / s['done']!;
    expect(s['duplicatedPerThousandLow']!).toBeLessThanOrEqual(rate);
    expect(s['duplicatedPerThousandHigh']!).toBeGreaterThanOrEqual(rate);
  });

  it('refuses a history that is not a queue run at the op that does not fit (exit 254)', () => {
    const base: Op[] = [
      { index: 0, time: 1, process: 0, type: 'invoke', f: 'enqueue', value: 1 },
      { index: 1, time: 2, process: 0, type: 'ok', f: 'enqueue', value: 1 },
    ];
    const bad: [Op[], RegExp][] = [
      [[...base, { index: 2, time: 3, process: 1, type: 'invoke', f: 'write', value: 1 }], /op #2: expected an op of the queue workload/],
      [
        [
          { ...base[0]!, value: 1.5 },
          { ...base[1]!, value: 1.5 },
        ],
        /op #0: expected a job id/,
      ],
      [[...base, { index: 2, time: 3, process: 1, type: 'invoke', f: 'effect', value: { job: 1 } }], /op #2: expected a delivery's attempt/],
      [[...base, { index: 2, time: 3, process: 0, type: 'invoke', f: 'enqueue', value: 1 }], /op #2: expected each job enqueued once/],
      [
        [
          ...base,
          { index: 2, time: 3, process: 9, type: 'invoke', f: 'final-read', value: null },
          { index: 3, time: 4, process: 9, type: 'ok', f: 'final-read', value: { done: [] } },
        ],
        /op #3: expected the final read's counter/,
      ],
    ];
    for (const [history, message] of bad) {
      const err = (() => {
        try {
          checkQueue(history);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(QueueHistoryError);
      expect((err as QueueHistoryError).exitCode).toBe(254);
      expect((err as Error).message).toMatch(message);
    }
  });
});
