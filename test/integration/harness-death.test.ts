/**
 * Integration (real servers, root): a part of the harness that dies mid-run is named. S2's run
 * (redis, no fence, delay proxies on every client's link to PostgreSQL) has every proxy to pg1
 * SIGKILLed from outside one second into its main phase. The run must record each death as a
 * failed fault naming the proxy, how it ended and its log (which exists and says which link it
 * was); the final read's "no successful final read" names the death; a valid verdict would read
 * untested, never safe; and the teardown leaves nothing behind. Then the same for PostgreSQL's
 * postmaster, SIGKILLed one second into a plain run's main phase.
 *
 * Needs `npm run build` first (the proxy and the clients run from dist/). Run it alone, under the
 * machine's cluster queue: `flock /tmp/fc-cluster.lock npx vitest run --project integration test/integration/harness-death.test.ts`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { variantRunOptions } from '../../src/scenarios/variant-options.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { readHistory } from '../../src/history/read-history.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import { DEFAULTS } from '../../core/plan/run-options.js';
import { leftovers, NOTHING_LEFT, SHARED_MACHINE, sleep, withClusterLock } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-harness-death-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

/** This process's children whose /proc/PID/comm is `comm` (`ip netns exec` and setpriv exec the server). */
function childPids(comm: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    });
}

/** A log hook that runs `act` once, `afterMs` into the main phase. */
function oneSecondIn(act: () => void): (line: string) => void {
  let armed = false;
  return (line) => {
    console.log(`  ${line}`);
    if (armed || !line.startsWith('main phase')) return;
    armed = true;
    void sleep(1000).then(act);
  };
}

/** This process's delay proxies to PostgreSQL's port (`ip netns exec` execs node, so each is our child). */
function pgProxyPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (ppid === process.pid && argv.some((a) => a.endsWith('delay-proxy-main.js')) && argv[argv.indexOf('--target') + 1]?.endsWith(':5432'))
        pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

describe('a delay proxy killed mid-run', () => {
  it('is a failed fault naming it and its log; the final read says so; nothing is left', async () => {
    const scenario = findScenario('S2');
    const variant = selectVariants(scenario, ['redis-none'])[0]!;
    const options = variantRunOptions(scenario, variant, 1, resultsDir);
    const killed: number[] = [];
    // One second into the main phase, from outside, as an OOM killer or a stray kill would.
    const log = oneSecondIn(() => {
      for (const pid of pgProxyPids()) {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      }
    });
    const r = await runLockTest(options, { log, ...SHARED_MACHINE });
    expect(killed.length).toBeGreaterThan(0);

    const results = readResultsJson(r.runDir)!;
    const failed = results.evidence!.faults.failed.filter((f) => f.fault === 'harness');
    expect(failed).toHaveLength(killed.length);
    for (const f of failed) {
      expect(f.error).toMatch(
        /^the delay proxy on c\d to pg1 \(10\.\d+\.\d+\.\d+:5432, pid \d+\) was killed by SIGKILL mid-run; its clients' link to pg1 was cut; its log: .*proxy-c\d-pg1\.log$/,
      );
      const logPath = f.error.slice(f.error.indexOf('its log: ') + 'its log: '.length);
      expect(existsSync(logPath)).toBe(true);
      expect(readFileSync(logPath, 'utf8')).toMatch(/delay proxy pid \d+: 127\.0\.0\.1:\d+ -> .*:5432/);
    }
    expect(killed.map((pid) => failed.some((f) => f.error.includes(`pid ${pid})`)))).toEqual(killed.map(() => true));
    // The history holds the deaths where they happened, and the final read's verdict names them.
    const history = await readHistory(join(r.runDir, 'history.jsonl'));
    expect(history.filter((op) => op.f === 'harness-died')).toHaveLength(killed.length);
    const lost = results.checkers.find((c) => c.checker === 'lost-updates')!;
    expect(lost.valid).toBe('unknown');
    expect(lost.summary).toMatch(/^no successful final read \(its attempts failed: .*; the delay proxy on c\d to pg1 .* was killed by SIGKILL mid-run/);
    // Never safe: unsafe on what it saw before, or untested with the death as the reason.
    expect(results.outcome).not.toBe('safe');

    expect(await withClusterLock(() => leftovers([], { runDir: r.runDir }))).toEqual(NOTHING_LEFT);
  }, 180_000);
});

describe('the resource server (postmaster) killed mid-run', () => {
  it('is a failed fault naming pg1 and its log; the run is not safe; nothing is left', async () => {
    const killed: number[] = [];
    const log = oneSecondIn(() => {
      for (const pid of childPids('postgres')) {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      }
    });
    const r = await runLockTest(
      {
        ...DEFAULTS,
        backend: 'redis',
        resource: 'none',
        workload: 'lock-counter',
        nemesis: ['client-pause'],
        timeLimitS: 6,
        clients: 3,
        ttlMs: 1000,
        intervalMs: 1000,
        durationMs: 2000,
        recoverMs: 1000,
        seed: 1,
        resultsDir,
      },
      { log, ...SHARED_MACHINE },
    );
    expect(killed).toHaveLength(1);
    const results = readResultsJson(r.runDir)!;
    const failed = results.evidence!.faults.failed.filter((f) => f.fault === 'harness');
    expect(failed).toEqual([
      {
        fault: 'harness',
        error: `the resource's server pg1 (postgres) is no longer running mid-run; every access and the final read fail; its log: ${join(r.runDir, 'logs', 'pg1.log')}`,
      },
    ]);
    expect(existsSync(join(r.runDir, 'logs', 'pg1.log'))).toBe(true);
    expect(results.outcome).not.toBe('safe');
    const lost = results.checkers.find((c) => c.checker === 'lost-updates')!;
    if (lost.valid === 'unknown') expect(lost.summary).toContain("the resource's server pg1 (postgres) is no longer running");
    expect(await withClusterLock(() => leftovers([], { runDir: r.runDir }))).toEqual(NOTHING_LEFT);
  }, 180_000);
});
