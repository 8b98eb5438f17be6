/**
 * A queue run's shrink over simulated re-runs (no cluster), from a run the project recorded (BullMQ, two stalls
 * of 4 s past a 1.5 s lock, 3 workers, 2 jobs done twice): its options and windows come back from test.json and
 * plan.json; with re-runs that fail when a stall outlasts the lock while two workers run, it shrinks to one
 * stall, two workers and a shorter run, every re-run given its plan as windows; the replay command names only
 * the faults its windows strike and carries them as --script; shrink.json says the rule, the rates and the
 * steps. A re-run that fails another way (a loss, not a duplicate) does not count. A run that did not fail is a
 * 254; a lock run's directory is not a queue run's (null: the lock shrink takes it).
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../core/errors.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import type { QueueHuntDeps, QueueTryRun } from '../../src/hunt/run-queue-hunt.js';
import { failedQueueRun, runQueueShrink } from '../../src/shrink/run-queue-shrink.js';

const FIXTURES = join(projectRoot(), 'test', 'fixtures', 'runs');

/** The recorded run copied to <tmp>/results/<name>/<stamp>, as a run directory sits. */
function recordedRun(fixture = 'recorded-queue-bullmq'): { results: string; runDir: string } {
  const root = madeTempDir('fc-queue-shrink-');
  const runDir = join(root, 'results', 'redis-bullmq-none-queue', '20261205T215736');
  cpSync(join(FIXTURES, fixture), runDir, { recursive: true });
  return { results: join(root, 'results'), runDir };
}

function results(kind: 'duplicated' | 'lost' | 'safe'): QueueTryRun['results'] {
  const stats = { done: 40, duplicated: kind === 'duplicated' ? 1 : 0, lost: kind === 'lost' ? 1 : 0, redelivered: 1 };
  return { outcome: kind === 'safe' ? 'safe' : 'unsafe', checkers: [{ checker: 'total-queue', stats }] };
}

function simDeps(fails: (o: QueueRunOptions) => 'duplicated' | 'lost' | 'safe'): QueueHuntDeps & { runs: QueueRunOptions[] } {
  const runs: QueueRunOptions[] = [];
  return {
    runs,
    lanes: 1,
    runTry: async (o) => {
      runs.push(o);
      return { runDir: join(o.resultsDir, o.name!), replay: 'r', results: results(fails(o)) };
    },
    now: () => 0,
    log: () => undefined,
    stopped: () => false,
  };
}

const stallPastLock = (o: QueueRunOptions): 'duplicated' | 'safe' =>
  o.workers >= 2 && (o.windows ?? []).some((w) => w.fault === 'pause' && w.durationMs >= o.lockMs) ? 'duplicated' : 'safe';

describe('a queue run shrunk', () => {
  it('reads the recorded run back and shrinks it to one stall past the lock, two workers', async () => {
    const { runDir } = recordedRun();
    const failed = failedQueueRun(runDir)!;
    expect(failed.signs).toEqual(['duplicated']);
    expect(failed.options).toMatchObject({ client: 'bullmq', workers: 3, lockMs: 1500, timeLimitS: 12, seed: 7 });
    expect(failed.options.windows).toEqual([
      { atMs: 2000, durationMs: 4000, fault: 'pause' },
      { atMs: 8060, durationMs: 4000, fault: 'pause' },
    ]);
    const shrinkDir = join(runDir, '..', '..', 'shrink');
    const deps = simDeps(stallPastLock);
    const report = await runQueueShrink({ runDir, maxCandidates: 40, shrinkDir }, deps);
    expect(report.exitCode).toBe(EXIT.invalid);
    expect(report.lines[0]).toMatch(/^shrunk to 1 fault window \(pause 2000 ms\), 2 workers, \d+ s; reproduced \d+\/\d+/);
    expect(report.options.workers).toBe(2);
    expect(report.options.windows).toHaveLength(1);
    expect(report.options.timeLimitS).toBeLessThan(12);
    // Every re-run ran its plan's windows as given.
    expect(deps.runs.every((o) => o.windows !== undefined)).toBe(true);
    const replay = report.lines.find((l) => l.startsWith('replay: '))!;
    expect(replay).toContain('--nemesis client-pause');
    expect(replay).toContain(`--script '[{"atMs":`);
    expect(replay).not.toContain('client-kill');
    const json = JSON.parse(readFileSync(join(shrinkDir, 'shrink.json'), 'utf8'));
    expect(json).toMatchObject({ workload: 'queue', signs: ['duplicated'], rule: { kind: 'sequential' } });
    expect(json.steps.length).toBeGreaterThan(0);
    expect(json.originalReproduced.fails).toBeGreaterThan(0);
  });

  it('a re-run that fails another way does not count: the original is too rare to shrink', async () => {
    const { runDir } = recordedRun();
    const report = await runQueueShrink(
      { runDir, maxCandidates: 40, shrinkDir: join(runDir, 'shrink') },
      simDeps(() => 'lost'),
    );
    expect(report.exitCode).toBe(EXIT.unknown);
    expect(report.lines[0]).toMatch(/^not shrunk: the original plan reproduced 0\//);
  });

  it('a queue run that did not fail is a 254; a lock run is not a queue run', () => {
    const { runDir } = recordedRun();
    const stored = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8'));
    writeFileSync(
      join(runDir, 'results.json'),
      JSON.stringify({
        ...stored,
        valid: true,
        outcome: 'safe',
        checkers: stored.checkers.map((c: object) => ({ ...c, valid: true, anomalies: [], anomalyCount: 0 })),
      }),
    );
    expect(() => failedQueueRun(runDir)).toThrow(expect.objectContaining({ exitCode: EXIT.badInput, message: expect.stringMatching(/did not fail/) }));
    expect(failedQueueRun(recordedRun('recorded-redis-none').runDir)).toBeNull();
  });
});
