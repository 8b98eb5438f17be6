/**
 * `fencecheck client-check --workload queue`: what a queue program's run says
 * about the queue protocol's contract (pure). Each check passes, fails, or is
 * skipped with why (nothing to compare), with its evidence:
 *
 *   protocol   every line the programs printed read as the protocol says
 *   enqueue    the producer answered every enqueue, ok
 *   deliver    every job enqueued ok was taken and its effect landed (the final read)
 *   events     every delivery went take → effect → complete, each answered
 *   attempts   a job handed out again carries a higher attempt number than before
 *              (the premise of --resource attempt-fence); skipped when the program
 *              announces none or no job was handed out twice
 */
import type { History, Op } from '../history/op.js';
import { checkQueue } from '../checkers/queue/total-queue.js';

export interface QueueContractCheck {
  check: string;
  status: 'pass' | 'fail' | 'skip';
  evidence: string;
}

export function queueContractChecks(history: History, announced: { attempt: string | null }, violations: readonly string[]): QueueContractCheck[] {
  const checks: QueueContractCheck[] = [];
  const add = (check: string, ok: boolean | 'skip', evidence: string): void =>
    void checks.push({ check, status: ok === 'skip' ? 'skip' : ok ? 'pass' : 'fail', evidence });

  add(
    'protocol',
    violations.length === 0,
    violations.length === 0 ? 'every line read as the protocol says' : `${violations.length} line(s) broke it; first: ${violations[0]}`,
  );

  const enqueues = history.filter((op) => op.f === 'enqueue' && op.type !== 'invoke');
  const okEnqueues = enqueues.filter((op) => op.type === 'ok').length;
  add(
    'enqueue',
    enqueues.length > 0 && okEnqueues === enqueues.length,
    enqueues.length === 0 ? 'no enqueue was answered' : `${okEnqueues} of ${enqueues.length} enqueue(s) answered ok`,
  );

  const stats = checkQueue(history).stats ?? {};
  const lost = stats['lost'] ?? 0;
  const done = stats['done'] ?? 0;
  add(
    'deliver',
    okEnqueues > 0 && lost === 0,
    lost === 0 ? `${done} job(s) taken, each effect landed (the final read)` : `${lost} job(s) enqueued ok whose effect never landed`,
  );

  const deliveries = byProcess(history.filter((op) => op.f === 'take' || op.f === 'effect' || op.f === 'complete'));
  const broken = [...deliveries].find(([, ops]) => !answeredInOrder(ops));
  add(
    'events',
    deliveries.size > 0 && broken === undefined,
    broken === undefined
      ? `${deliveries.size} deliveries, each take → effect → complete, every one answered`
      : `a delivery's events out of order or unanswered: ${broken[1].map((op) => `${op.f} ${op.type}`).join(', ')}`,
  );

  add(...attemptsCheck(history, announced.attempt));
  return checks;
}

function attemptsCheck(history: History, field: string | null): [string, boolean | 'skip', string] {
  if (field === null) return ['attempts', 'skip', 'the program announces no attempt number: --resource attempt-fence is n/a'];
  const takes = new Map<string, number[]>();
  for (const op of history) {
    if (op.f !== 'take' || op.type !== 'ok') continue;
    const v = op.value as { job: unknown; attempt: number };
    const key = JSON.stringify(v.job);
    takes.set(key, [...(takes.get(key) ?? []), v.attempt]);
  }
  const again = [...takes].filter(([, a]) => a.length > 1);
  if (again.length === 0) return ['attempts', 'skip', 'no job was handed out twice: nothing to compare (the stall did not outlast the lock)'];
  const flat = again.find(([, a]) => a.some((x, i) => i > 0 && x <= a[i - 1]!));
  if (flat !== undefined)
    return [
      'attempts',
      false,
      `job ${flat[0]} taken as attempt ${flat[1].join(', then ')}: \`${field}\` does not rise when the job is handed out again, so --resource attempt-fence cannot tell the runs apart`,
    ];
  const [job, a] = again[0]!;
  return ['attempts', true, `${again.length} job(s) handed out again, each with a higher attempt (job ${job}: ${a.join(' → ')})`];
}

function byProcess(ops: Op[]): Map<string, Op[]> {
  const m = new Map<string, Op[]>();
  for (const op of ops) m.set(String(op.process), [...(m.get(String(op.process)) ?? []), op]);
  return m;
}

/** take invoke, take ok, effect invoke, its answer, complete invoke, its answer: in that order. */
function answeredInOrder(ops: Op[]): boolean {
  const shape = ops.map((op) => `${op.f}:${op.type === 'invoke' ? 'invoke' : 'answer'}`).join(' ');
  return shape === 'take:invoke take:answer effect:invoke effect:answer complete:invoke complete:answer';
}
