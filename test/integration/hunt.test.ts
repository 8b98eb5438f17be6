/**
 * Integration (real servers, root): one small hunt on Redis with no fence,
 * client pauses aimed at lock events, finds the paused holder's violation;
 * the failing try is then shrunk, every candidate re-run on the cluster.
 * Each try starts and tears down its own cluster, one at a time. Needs
 * `npm run build` first (clients run from dist/).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { realHuntDeps } from '../../src/hunt/real-hunt-deps.js';
import { runHunt, type HuntReport } from '../../src/hunt/run-hunt.js';
import { failedRunOptions, runShrink } from '../../src/shrink/run-shrink.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-hunt-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));
const log = (l: string): void => console.log(l);

describe('hunt and shrink on a real cluster', () => {
  let found: HuntReport | undefined;

  it('a hunt with client pauses at lock events finds the violation on redis with no fence', async () => {
    // Every try on one warm cluster, torn down (and the machine's cluster lock freed) when the hunt ends.
    const deps = realHuntDeps(log, () => false);
    found = await runHunt(
      {
        target: { backend: 'redis', resource: 'none', workload: 'lock-counter' },
        faults: ['client-pause'],
        budget: { runs: 4 },
        seed: 1,
        huntDir: join(resultsDir, 'hunt'),
        keepGoing: false,
        shape: { timeLimitS: 8, clients: 3, ttlMs: 1000 },
      },
      deps,
    ).finally(() => deps.close?.());
    console.log(found.lines.join('\n'));
    expect(found.exitCode).toBe(1);
    const miss = found.found!.record.miss!;
    expect(miss.doubleHolds).toBeGreaterThan(0);
    // Its faults waited for lock events and fired on them: `triggered` counts the fault starts a lock event fired
    // (nemesis starts carrying the event, src/hunt/near-miss.ts), not the windows that ran on the clock.
    expect(
      miss.triggered,
      `no fault of the failing try fired on a lock event (${miss.applied} struck, windows ${JSON.stringify(found.found!.record.plan.windows)})`,
    ).toBeGreaterThan(0);
  }, 300_000);

  it('the failing try shrinks, each kept candidate failing again on the cluster', async () => {
    expect(found?.found).toBeTruthy();
    const runDir = found!.found!.record.runDir!;
    const before = failedRunOptions(runDir);
    // k = 1 of K = 3: a double hold on an unfenced counter loses an update in some runs, not all (measured: the
    // same plan failed 0 of 1 re-runs once), and a test must fit the machine's queue; the CLI's default is 4 of 5.
    const deps = realHuntDeps(log, () => false);
    const r = await runShrink({ runDir, runs: 3, minFails: 1, maxCandidates: 3, shrinkDir: join(resultsDir, 'shrink') }, deps).finally(() => deps.close?.());
    console.log(r.lines.join('\n'));
    expect(r.exitCode).toBe(1);
    expect(r.lines[0]).toMatch(/^shrunk to \d+ fault events?, \d+ clients?, \d+ s; reproduced 1\/\d \(95% CI [^)]+\)$/);
    expect(r.options.script!.length).toBeLessThanOrEqual(before.script!.length);
  }, 600_000);
});
