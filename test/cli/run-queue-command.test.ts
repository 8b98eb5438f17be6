/**
 * `fencecheck run` reads its flags for a queue with --workload queue: the shared run flags mapped to a queue
 * run's options (--clients workers, --hold-ms the job, --ttl-ms the library's lock), --client required,
 * the lock-only flags refused; without --workload queue a queue's server or mode is refused with the flag
 * that would make it mean something. All 254 with a hint, before anything starts.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { describe, expect, it } from 'vitest';
import { EXIT, UsageError } from '../../core/errors.js';
import { DEFAULTS } from '../../core/plan/run-options.js';
import { queueOptionsOf, refuseQueueOnly } from '../../src/cli/run-queue-command.js';
import type { CliFlags } from '../../src/cli/run-command.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';

const flags = (extra: Record<string, unknown>): CliFlags =>
  ({
    backend: 'redis',
    resource: 'none',
    workload: 'queue',
    seed: 7,
    nemesis: ['client-pause'],
    results: 'results',
    busyTimeoutMs: 0,
    timeLimit: 12,
    clients: 3,
    ttlMs: 1500,
    holdMs: 250,
    rate: DEFAULTS.rate,
    intervalMs: DEFAULTS.intervalMs,
    durationMs: DEFAULTS.durationMs,
    recoverMs: DEFAULTS.recoverMs,
    callTimeoutMs: DEFAULTS.callTimeoutMs,
    client: 'bullmq',
    ...extra,
  }) as unknown as CliFlags;

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('run --workload queue flags', () => {
  it('maps the shared flags to a queue run', () => {
    expect(queueOptionsOf(flags({}))).toMatchObject({ backend: 'redis', client: 'bullmq', workers: 3, jobMs: 250, lockMs: 1500, timeLimitS: 12, seed: 7 });
  });

  it('requires --client and refuses the lock-only flags', () => {
    expect(usage(() => queueOptionsOf(flags({ client: undefined }))).message).toMatch(/--client/);
    const err = usage(() => queueOptionsOf(flags({ checkHold: true })));
    expect(err.exitCode).toBe(EXIT.badInput);
    expect(err.message).toMatch(/--check-hold/);
  });

  it('a lock run refuses a queue server, a queue mode or a queue fault, pointing at --workload queue', () => {
    for (const f of [
      { backend: 'postgres', resource: 'none' },
      { backend: 'redis', resource: 'attempt-fence' },
      { backend: 'redis', resource: 'none', nemesis: ['partition', 'client-kill'] },
    ] as const) {
      const err = usage(() => refuseQueueOnly(f));
      expect(err.exitCode).toBe(EXIT.badInput);
      expect(err.hint).toMatch(/--workload queue/);
    }
    expect(() => refuseQueueOnly({ backend: 'redis', resource: 'none' })).not.toThrow();
    expect(() => refuseQueueOnly({ backend: 'redis', resource: 'none', nemesis: ['client-pause@holder-read', 'kill'] })).not.toThrow();
  });
});

describe('a queue run directory read as a lock run', () => {
  it('is refused as what it is (254), not as a damaged file', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = madeTempDir('fc-queue-dir-');
    {
      writeFileSync(
        join(dir, 'test.json'),
        JSON.stringify({ backend: 'redis', resource: 'none', workload: 'queue', seed: 1, name: 'q', startedAt: '2026-12-05T00:00:00Z' }),
      );
      expect(() => readTestJson(dir)).toThrow(/queue run's test\.json/);
      try {
        readTestJson(dir);
      } catch (err) {
        expect((err as { hint?: string }).hint).toMatch(/fencecheck check RUN_DIR/);
        expect((err as { exitCode?: number }).exitCode).toBe(254);
      }
    }
  });
});
