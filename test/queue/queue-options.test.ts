/**
 * A queue run's options are refused before anything starts (254, with a hint): a server no queue runs on, a
 * lock mode, a library on the wrong server, an unknown library name, a fault a queue run does not strike, a
 * plan too large; a good set passes and its replay command holds every option. The plan is seeded: the same
 * options give the same jobs and windows, another seed others.
 */
import { describe, expect, it } from 'vitest';
import { EXIT, UsageError } from '../../core/errors.js';
import { queueReplayCommand, validateQueueOptions, type QueueRunOptions } from '../../core/queue/queue-options.js';
import { planQueueRun } from '../../core/queue/queue-plan.js';
import { parseQueuePlanWindows } from '../../core/queue/queue-run-files.js';
import { modeNotServed, QUEUE_LIBRARIES } from '../../core/queue/queue-libraries.js';
import { MATRIX_SETTINGS } from '../../core/queue/queue-matrix.js';
import { QUEUE_FAULTS, QUEUE_SERVERS } from '../../core/queue/queue-options.js';
import { WINDOW_FAULTS } from '../../core/queue/queue-window.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { DEBIAN_PACKAGES } from '../../runtime/cluster/setup.js';
import { testSeed } from '../support/seed.js';

// The run command's defaults (the queue matrix writes them out).
const GOOD: QueueRunOptions = { backend: 'redis', client: 'bullmq', resource: 'none', nemesis: ['client-pause'], ...MATRIX_SETTINGS, resultsDir: 'results' };

function refusal(o: Partial<QueueRunOptions>): UsageError {
  try {
    validateQueueOptions({ ...GOOD, ...o } as QueueRunOptions);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`accepted: ${JSON.stringify(o)}`);
}

describe('queue run options', () => {
  it('accepts the documented run and replays every option', () => {
    expect(() => validateQueueOptions(GOOD)).not.toThrow();
    const replay = queueReplayCommand(GOOD);
    for (const part of ['--workload queue', '--backend redis', '--client bullmq', '--resource none', '--nemesis client-pause', '--seed 1', '--ttl-ms 2000'])
      expect(replay).toContain(part);
  });

  it.each([
    [{ backend: 'etcd' }, /queue's server/],
    [{ resource: 'fence-claim' }, /queue mode/],
    [{ backend: 'postgres' }, /--backend redis. for .--client bullmq/],
    [{ client: 'celery-typo' }, /name a queue library/],
    [{ nemesis: ['partition'] }, /faults a queue run strikes/],
    [{ rate: 1000, workers: 50, timeLimitS: 3600 }, /at most 200,000 jobs/],
  ] as [Partial<QueueRunOptions>, RegExp][])('refuses %j with 254 and a hint', (o, message) => {
    const err = refusal(o);
    expect(err.exitCode).toBe(EXIT.badInput);
    expect(err.message).toMatch(message);
    expect(err.hint).toBeTruthy();
  });

  it('redis-sentinel takes the libraries whose programs follow Sentinels, and refuses the rest, a delay proxy and a persistence flag', () => {
    for (const lib of QUEUE_LIBRARIES.filter((l) => l.server === 'redis')) {
      const o = { ...GOOD, backend: 'redis-sentinel' as const, client: lib.name };
      if (lib.sentinel === true) expect(() => validateQueueOptions(o)).not.toThrow();
      else expect(() => validateQueueOptions(o)).toThrow(/connects to one Redis, not through Sentinels/);
    }
    expect(QUEUE_LIBRARIES.filter((l) => l.sentinel === true).map((l) => l.name)).toEqual(['bullmq', 'bull', 'celery', 'celery-acks-late', 'rq']);
    expect(() => validateQueueOptions({ ...GOOD, backend: 'redis-sentinel', client: 'pg-boss' })).toThrow(/--backend postgres/);
    expect(() => validateQueueOptions({ ...GOOD, backend: 'redis-sentinel', nemesis: ['client-delay'] })).toThrow(/no delay proxy can sit on their link/);
    expect(() => validateQueueOptions({ ...GOOD, backend: 'redis-sentinel', redisPersistence: 'aof-everysec' })).toThrow(/only with `--backend redis`/);
  });

  it('a command line is accepted as a program speaking the queue protocol', () => {
    expect(() => validateQueueOptions({ ...GOOD, client: 'node /opt/my-worker.mjs' })).not.toThrow();
  });

  it('attempt-fence is n/a for a library with no attempt number, with the reason', () => {
    expect(modeNotServed({ name: 'x', attempt: { none: 'its worker never sees a delivery count' } }, 'attempt-fence')).toMatch(/no attempt number/);
    expect(modeNotServed({ name: 'x', attempt: { none: 'n/a' } }, 'idempotent')).toBeUndefined();
    expect(modeNotServed({ name: 'bullmq', attempt: { field: 'job.attemptsStarted' } }, 'attempt-fence')).toBeUndefined();
  });
});

describe('the queue libraries', () => {
  it('each names a program that exists, a queue server, and a package pinned at its version in clients/node or installed by setup from Debian', () => {
    const pins = JSON.parse(readFileSync(join(projectRoot(), 'clients', 'node', 'package.json'), 'utf8')).dependencies as Record<string, string>;
    for (const lib of QUEUE_LIBRARIES) {
      expect(existsSync(join(projectRoot(), lib.program)), lib.program).toBe(true);
      expect(QUEUE_SERVERS).toContain(lib.server);
      const [pkg, version] = lib.library.split(' ');
      if (lib.language === 'node') expect(pins[pkg!], lib.library).toBe(version);
      else expect(DEBIAN_PACKAGES, lib.library).toContain(`python3-${pkg}`);
    }
  });
});

describe('the queue plan', () => {
  it('is seeded: same options same plan, jobs inside the time limit at about the rate, windows spaced by their interval', () => {
    const seed = testSeed('queue plan', 'test/queue/queue-options.test.ts');
    const o = { ...GOOD, seed };
    const a = planQueueRun(o);
    expect(planQueueRun(o)).toEqual(a);
    expect(planQueueRun({ ...o, seed: seed + 1 }).jobs).not.toEqual(a.jobs);
    expect(a.jobs.every((j, i) => j.job === i + 1 && j.atMs >= 0 && j.atMs < o.timeLimitS * 1000)).toBe(true);
    // 10 jobs a second over 30 s: a Poisson count of mean 300 is within ±100 far beyond any seed's chance.
    expect(a.jobs.length).toBeGreaterThan(200);
    expect(a.jobs.length).toBeLessThan(400);
    expect(a.stalls.length).toBeGreaterThan(0);
    for (let i = 1; i < a.stalls.length; i++) expect(a.stalls[i]!.atMs - a.stalls[i - 1]!.atMs).toBeGreaterThanOrEqual(o.durationMs + o.intervalMs);
    expect(planQueueRun({ ...o, nemesis: [] }).stalls).toEqual([]);
  });

  it('strikes the faults asked for: one fault keeps the same windows whichever it is, both draw each window from the two (seeded)', () => {
    const seed = testSeed('queue plan faults', 'test/queue/queue-options.test.ts');
    const o = { ...GOOD, seed, timeLimitS: 300 };
    const pauses = planQueueRun({ ...o, nemesis: ['client-pause'] }).stalls;
    const kills = planQueueRun({ ...o, nemesis: ['client-kill'] }).stalls;
    expect(pauses.every((w) => w.fault === 'pause')).toBe(true);
    expect(kills.every((w) => w.fault === 'kill')).toBe(true);
    expect(kills.map((w) => w.atMs)).toEqual(pauses.map((w) => w.atMs));
    const both = planQueueRun({ ...o, nemesis: ['client-pause', 'client-kill'] }).stalls;
    expect(both.map((w) => w.atMs)).toEqual(pauses.map((w) => w.atMs));
    // 300 s of 5 s windows spaced by 5 s: about 30 draws, both kinds far beyond any seed's chance of one alone.
    expect(both.some((w) => w.fault === 'pause') && both.some((w) => w.fault === 'kill')).toBe(true);
    expect(planQueueRun({ ...o, nemesis: ['client-pause', 'client-kill'] })).toEqual(planQueueRun({ ...o, nemesis: ['client-pause', 'client-kill'] }));
    const three = planQueueRun({ ...o, nemesis: ['client-pause', 'client-kill', 'server-kill'] }).stalls;
    expect(three.map((w) => w.atMs)).toEqual(pauses.map((w) => w.atMs));
    expect(new Set(three.map((w) => w.fault))).toEqual(new Set(['pause', 'kill', 'server-kill']));
    expect(planQueueRun({ ...o, nemesis: ['server-kill'] }).stalls.every((w) => w.fault === 'server-kill')).toBe(true);
  });

  it("plan.json's reader (check RUN_DIR) takes every fault window the plan makes, and refuses another", () => {
    const seed = testSeed('queue plan windows read back', 'test/queue/queue-options.test.ts');
    const plan = planQueueRun({ ...GOOD, seed, timeLimitS: 600, nemesis: [...QUEUE_FAULTS] });
    expect(new Set(plan.stalls.map((w) => w.fault))).toEqual(new Set(WINDOW_FAULTS));
    expect(parseQueuePlanWindows(JSON.stringify(plan), 'plan.json')).toBe(plan.stalls.length);
    const odd = { ...plan, stalls: [{ atMs: 1, durationMs: 1, fault: 'clock' }] };
    expect(() => parseQueuePlanWindows(JSON.stringify(odd), 'plan.json')).toThrow(/stalls\[0\]/);
  });

  it('--redis-persistence is for a Redis queue server only, and the replay keeps it', () => {
    expect(() => validateQueueOptions({ ...GOOD, backend: 'postgres', client: 'pg-boss', redisPersistence: 'aof-everysec' })).toThrow(
      /only with `--backend redis`/,
    );
    expect(() => validateQueueOptions({ ...GOOD, redisPersistence: 'aof-everysec' })).not.toThrow();
    expect(queueReplayCommand({ ...GOOD, redisPersistence: 'aof-everysec' })).toContain('--redis-persistence aof-everysec');
    expect(queueReplayCommand({ ...GOOD, redisPersistence: 'none' })).not.toContain('--redis-persistence');
  });
});
