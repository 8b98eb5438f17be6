/**
 * SELECT … FOR UPDATE in the simulation (sim-db.ts's transactions and row lock), with no lock at all: the real
 * client code's for-update statements against the simulated PostgreSQL, held to what
 * test/integration/db-control-modes.test.ts shows on the real server. A section paused inside its
 * transaction keeps the row lock: the others wait and give up at statement_timeout (a definite failure);
 * with idle_in_transaction_session_timeout the server ends the paused session, its write then fails
 * definitely (transaction-lost), and the lock passes on. Either way no update is lost, by the checker and by
 * the truth; the same workload with no control at all loses updates.
 */
import { describe, expect, it } from 'vitest';
import { analyseRun } from '../../core/analyse/analyse-run.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import type { History } from '../../core/history/op.js';
import { simulateRun } from './simulate-run.js';
import { compareWithTruth } from './compare-with-truth.js';

const base: RunOptions = {
  backend: 'none',
  resource: 'for-update',
  workload: 'lock-counter',
  nemesis: ['client-pause'],
  timeLimitS: 5,
  clients: 3,
  ttlMs: 1000,
  seed: 5,
  holdMs: 100,
  rate: 4,
  intervalMs: 1000,
  durationMs: 2500,
  recoverMs: 500,
  callTimeoutMs: 500,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
  // The pause lands between a section's read (its SELECT … FOR UPDATE, the transaction open) and its write.
  script: [{ at: 1000, until: 3500, fault: 'client-pause', target: { kind: 'holder' }, trigger: { on: 'holder-read', withinMs: 1000 } }],
};

const errors = (h: History): string[] => h.filter((op) => op.type === 'fail' && (op.f === 'read' || op.f === 'write')).map((op) => String(op.error));

async function judged(o: RunOptions) {
  const run = await simulateRun(o);
  const checked = analyseRun(run.history, o);
  const lost = checked.verdicts.find((v) => v.checker === 'lost-updates')!;
  const truth = compareWithTruth(run);
  return { run, lost, truth, errors: errors(run.history) };
}

describe('for-update in the simulation, no lock', () => {
  it('a section paused in its transaction keeps the row lock: the others time out waiting, nothing is lost', async () => {
    const { lost, truth, errors: e } = await judged({ ...base, idleTxTimeoutMs: 0 });
    expect(e.filter((x) => x === 'statement-timeout').length, e.join(', ')).toBeGreaterThan(0);
    expect(lost.valid).toBe(true);
    expect(truth.lostTrue).toBe(0);
    expect(truth.disagreements).toEqual([]);
  });

  it('idle_in_transaction_session_timeout ends the paused session: its write fails definitely, the lock passes on, nothing is lost', async () => {
    const { run, lost, truth, errors: e } = await judged({ ...base, idleTxTimeoutMs: 400 });
    expect(e).toContain('transaction-lost');
    // The others got the row after the server ended the paused session: sections completed during the pause.
    const pausedAt = run.history.find((op) => op.process === 'nemesis' && op.f === 'pause' && op.type === 'info')!.time;
    const resumedAt = run.history.find((op) => op.process === 'nemesis' && op.f === 'resume' && op.type === 'info')!.time;
    const writesDuring = run.history.filter((op) => op.f === 'write' && op.type === 'ok' && op.time > pausedAt && op.time < resumedAt);
    expect(writesDuring.length).toBeGreaterThan(0);
    expect(lost.valid).toBe(true);
    expect(truth.lostTrue).toBe(0);
    expect(truth.disagreements).toEqual([]);
  });

  it('the same workload with no control at all loses updates (the danger the modes stop)', async () => {
    const { lost, truth } = await judged({ ...base, resource: 'none' });
    expect(lost.valid).toBe(false);
    expect(truth.lostTrue).toBeGreaterThan(0);
    expect(truth.disagreements).toEqual([]);
  });
});
