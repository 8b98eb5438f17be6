/**
 * `fencecheck client-check --workload queue --backend redis|postgres --client NAME|'CMD'`:
 * a queue program through the queue protocol's contract on a real cluster. One short
 * run (two workers, a few jobs a second, one worker stalled past a 1.5 s lock so that a
 * job may be handed out again, --resource none so that every delivery's effect lands),
 * then the contract's checks over what it recorded (core/queue/queue-contract.ts).
 */
import type { QueueContractCheck } from '../../core/queue/queue-contract.js';
import { queueContractChecks } from '../../core/queue/queue-contract.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';
import type { QueueServer } from '../../core/queue/queue-libraries.js';
import { validateQueueOptions } from '../../core/queue/queue-options.js';
import { runQueueTest } from './run-queue-test.js';

export interface QueueClientCheck {
  checks: QueueContractCheck[];
  library: string;
  attempt: string | null;
  runDir: string;
}

/** The run a queue client-check makes: short, one stall past the lock, every effect landing. */
export function queueCheckOptions(backend: QueueServer, client: string, resultsDir: string): QueueRunOptions {
  return {
    backend,
    client,
    resource: 'none',
    nemesis: ['client-pause'],
    timeLimitS: 8,
    workers: 2,
    rate: 2,
    jobMs: 200,
    lockMs: 1500,
    intervalMs: 1500,
    durationMs: 4500,
    recoverMs: 4000,
    callTimeoutMs: 1000,
    seed: 1,
    resultsDir,
  };
}

export async function runQueueClientCheck(
  backend: QueueServer,
  client: string,
  resultsDir: string,
  hooks: { log: (line: string) => void; busyTimeoutMs: number; slot?: number },
): Promise<QueueClientCheck> {
  const o = queueCheckOptions(backend, client, resultsDir);
  validateQueueOptions(o);
  const r = await runQueueTest(o, hooks);
  return { checks: queueContractChecks(r.history, r.announced, r.violations), library: r.announced.library, attempt: r.announced.attempt, runDir: r.runDir };
}
