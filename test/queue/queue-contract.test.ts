/**
 * The queue protocol's contract checks (core/queue/queue-contract.ts) over a queue run the project
 * recorded (test/fixtures/runs/recorded-queue-bullmq: BullMQ, two jobs handed out again with attempts
 * 1 then 2): the recorded run passes every check; each change a broken program would make fails the
 * check that names it (a violation, an enqueue not answered ok, a delivery that never answers, a
 * redelivery with the same attempt number), and a program announcing no attempt number skips that one.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { queueContractChecks } from '../../core/queue/queue-contract.js';
import type { History, Op } from '../../core/history/op.js';

const RECORDED = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runs', 'recorded-queue-bullmq', 'history.jsonl');
const recorded = (): History =>
  readFileSync(RECORDED, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Op);
const status = (h: History, attempt: string | null = 'attemptsStarted', violations: string[] = []): Record<string, string> =>
  Object.fromEntries(queueContractChecks(h, { attempt }, violations).map((c) => [c.check, c.status]));

describe('the queue contract checks', () => {
  it('pass on the recorded BullMQ run, the attempts rising on each job handed out again', () => {
    const checks = queueContractChecks(recorded(), { attempt: 'attemptsStarted' }, []);
    expect(checks.map((c) => [c.check, c.status])).toEqual([
      ['protocol', 'pass'],
      ['enqueue', 'pass'],
      ['deliver', 'pass'],
      ['events', 'pass'],
      ['attempts', 'pass'],
    ]);
    expect(checks.find((c) => c.check === 'attempts')!.evidence).toMatch(/2 job\(s\) handed out again, each with a higher attempt \(job \d+: 1 → 2\)/);
  });

  it('fail the check each broken program breaks', () => {
    expect(status(recorded(), 'attemptsStarted', ['w1: not JSON: hi'])['protocol']).toBe('fail');

    const info = recorded();
    const firstAnswer = info.findIndex((op) => op.f === 'enqueue' && op.type === 'ok');
    info[firstAnswer] = { ...info[firstAnswer]!, type: 'info' };
    expect(status(info)['enqueue']).toBe('fail');

    const unanswered = recorded();
    const complete = unanswered.findIndex((op) => op.f === 'complete' && op.type !== 'invoke');
    unanswered.splice(complete, 1);
    expect(status(unanswered)['events']).toBe('fail');

    // The second take of a job handed out again, given the first's attempt (what Bull's attemptsMade does).
    const flat = recorded();
    const takes = flat.map((op, i) => [op, i] as const).filter(([op]) => op.f === 'take' && op.type === 'ok');
    const [second] = takes.filter(([op]) => (op.value as { attempt: number }).attempt === 2)[0]!;
    const i = flat.indexOf(second);
    flat[i] = { ...second, value: { ...(second.value as object), attempt: 1 } };
    const checks = queueContractChecks(flat, { attempt: 'attemptsMade + 1' }, []);
    const attempts = checks.find((c) => c.check === 'attempts')!;
    expect(attempts.status).toBe('fail');
    expect(attempts.evidence).toMatch(/taken as attempt 1, then 1: `attemptsMade \+ 1` does not rise/);
  });

  it('skip the attempts check for a program announcing none, and when no job was handed out twice', () => {
    expect(status(recorded(), null)['attempts']).toBe('skip');
    const once = recorded();
    const seen = new Set<string>();
    // Keep each job's first delivery only: its process's ops.
    const drop = new Set<unknown>();
    for (const op of once)
      if (op.f === 'take' && op.type === 'ok') {
        const job = JSON.stringify((op.value as { job: unknown }).job);
        if (seen.has(job)) drop.add(op.process);
        seen.add(job);
      }
    const firsts = once.filter((op) => !drop.has(op.process));
    expect(status(firsts)['attempts']).toBe('skip');
  });
});
