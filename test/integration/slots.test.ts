/**
 * Integration (real servers, root): slots share nothing. Two Redlock clusters
 * (five Redis servers each: a clock jump reaches them through the clock
 * library, which a Go etcd would ignore) run at once, in slots 1 and 2 (the
 * same node names, `fc1-redlock1` and `fc2-redlock1`). Slot 1's run cuts a
 * node off, pauses another, kills a third and jumps the last two's clocks;
 * slot 2's run, at the same time, has no fault, and must show none of them:
 * every call answered, no nemesis op, no server of its own restarted, the
 * counter's verdict what a fault-free lock gives (no lost update). Each slot's faults must also have happened
 * in slot 1 (every start op done, without an error), or the test proves nothing. Then the slot's
 * reclaim leaves the other slot's cluster running, and `down`'s reclaim of
 * every slot ends both. A parallel hunt and a parallel shrink, each killed
 * with SIGKILL on two slots, are reclaimed slot by slot by the next cluster
 * start (the shrink's PostgreSQL template with them). Needs `npm run build`
 * first (clients run from dist/).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { defaultStateFile } from '../../runtime/hosts/paths.js';
import { StateFile } from '../../runtime/hosts/state-file.js';
import { isSameProcess } from '../../runtime/hosts/process-info.js';
import { runLockTest, type RunResult } from '../../src/run/run-lock-test.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { parseScript } from '../../core/generator/parse-script.js';
import { WarmPool } from '../../runtime/runner/warm-pool.js';
import { acquireClusterLock } from '../../runtime/cluster/cluster-lock.js';
import { reclaim } from '../../runtime/cluster/reclaim.js';
import { projectNamespaces } from '../../runtime/cluster/topology.js';
import { spawn } from 'node:child_process';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import type { ProcessRecord } from '../../runtime/hosts/state-file.js';
import { cliPath, pgTemplatesOf, SHARED_MACHINE, waitFor } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-slots-'));
const log = (slot: number) => (l: string) => console.log(`  [slot ${slot}] ${l}`);

/** Reclaim a slot holding its lock (what an earlier, killed test left). */
async function reclaimSlot(slot: number): Promise<void> {
  const lock = await acquireClusterLock(defaultStateFile(slot), SHARED_MACHINE.busyTimeoutMs, slot);
  try {
    await reclaim({ slot });
  } finally {
    await lock.release();
  }
}

/** A two-lane command's clusters up in slots 0 and 1 (the lowest free), each with its Redis recorded, and two runs in their main phase: every process recorded. */
function bothLanesRunning(what: string, output: () => string, timeoutMs: number): Promise<ProcessRecord[]> {
  return waitFor(
    what,
    async () => {
      const states = [0, 1].map((s) => StateFile.read(defaultStateFile(s)));
      const redis = states.map((st) => st?.processes.find((p) => p.name === 'redis1'));
      return redis.every((r) => r !== undefined) && (output().match(/main phase/g) ?? []).length >= 2 ? states.flatMap((st) => st!.processes) : undefined;
    },
    timeoutMs,
    200,
  );
}

beforeAll(async () => {
  for (const s of [0, 1, 2]) await reclaimSlot(s);
});
afterAll(async () => {
  for (const s of [0, 1, 2]) await reclaimSlot(s);
  rmSync(resultsDir, { recursive: true, force: true });
});

const base: RunOptions = {
  ...DEFAULTS,
  backend: 'redlock',
  resource: 'none',
  workload: 'lock-counter',
  timeLimitS: 8,
  clients: 3,
  ttlMs: 2000,
  rate: 4,
  recoverMs: 1500,
  seed: 11,
  resultsDir,
};

// Every fault kind the issue names, each on slot 1's own servers, one after the other.
const FAULTS = parseScript(
  JSON.stringify([
    { fault: 'partition', at: 500, until: 2000, target: { kind: 'partition', grudgeKind: 'isolate-one', victim: { kind: 'node', node: 'redlock1' } } },
    { fault: 'server-pause', at: 2500, until: 3500, target: { kind: 'node', node: 'redlock2' } },
    { fault: 'kill', at: 4000, until: 4800, target: { kind: 'node', node: 'redlock3' } },
    { fault: 'clock', at: 5200, until: 6500, target: { kind: 'nodes', nodes: ['redlock4', 'redlock5'] }, offsetMs: 30_000 },
  ]),
);

interface Op {
  process: unknown;
  type: string;
  f: string;
  error?: unknown;
}
const historyOf = (r: RunResult): Op[] =>
  readFileSync(join(r.runDir, 'history.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Op);

describe('slots', () => {
  it("a partition, a pause, a kill and a clock jump in slot 1 never touch slot 2's cluster", async () => {
    const pools = [new WarmPool(undefined, undefined, 1), new WarmPool(undefined, undefined, 2)] as const;
    try {
      const hooks = (slot: number, pool: WarmPool) => ({ log: log(slot), busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs, warm: pool });
      // Slot 2 up first, so that its servers' pids can be checked across slot 1's whole run.
      const quietFirst = await runLockTest({ ...base, name: 'slot2-before' }, hooks(2, pools[1]));
      const servers2 = StateFile.read(defaultStateFile(2))!.processes.filter((p) => p.name.startsWith('redlock'));
      expect(servers2.map((p) => p.namespace)).toEqual(['fc2-redlock1', 'fc2-redlock2', 'fc2-redlock3', 'fc2-redlock4', 'fc2-redlock5']);
      const [faulty, quiet] = await Promise.all([
        runLockTest({ ...base, name: 'slot1-faults', script: FAULTS, nemesis: ['partition', 'server-pause', 'kill', 'clock'] }, hooks(1, pools[0])),
        // Started a moment later, so that every fault of slot 1 falls within its run.
        new Promise((r) => setTimeout(r, 300)).then(() => runLockTest({ ...base, name: 'slot2-quiet', timeLimitS: 9 }, hooks(2, pools[1]))),
      ]);
      for (const r of [quietFirst, faulty, quiet]) console.log(`${r.runDir}: ${r.verdicts.map((v) => `${v.checker}=${String(v.valid)}`).join(' ')}`);

      // Slot 1: every fault happened (its start op completed as an info without an error: Jepsen's nemesis ops), on slot 1's names.
      const nemesis1 = historyOf(faulty).filter((o) => o.process === 'nemesis');
      for (const f of ['start-partition', 'pause', 'kill', 'clock-offset'])
        expect(
          nemesis1.filter((o) => o.f === f && o.type === 'info' && o.error === undefined).length,
          `${f} applied in slot 1: ${JSON.stringify(nemesis1.filter((o) => o.f === f))}`,
        ).toBeGreaterThan(0);

      // Slot 2: no fault, every call answered, its servers the same processes all along.
      const ops2 = historyOf(quiet);
      // (Every run ends with its heal-all, a fault or not.)
      expect(ops2.filter((o) => o.process === 'nemesis' && o.f !== 'heal-all')).toEqual([]);
      expect(ops2.filter((o) => o.process !== 'nemesis' && o.type === 'info')).toEqual([]);
      expect(servers2.filter((p) => !isSameProcess(p)).map((p) => p.name)).toEqual([]);
      expect(quiet.verdicts.find((v) => v.checker === 'lost-updates')?.valid).toBe(true);
      expect(ops2.filter((o) => o.f === 'write' && o.type === 'ok').length).toBeGreaterThan(5);

      // The reclaim of slot 1 leaves slot 2 running.
      await pools[0].close(log(1));
      expect(projectNamespaces(1)).toEqual([]);
      expect(projectNamespaces(2).length).toBeGreaterThan(0);
      expect(servers2.every((p) => isSameProcess(p))).toBe(true);
    } finally {
      for (const [i, p] of pools.entries()) await p.close(log(i + 1));
    }
    expect(projectNamespaces(2)).toEqual([]);
  }, 240_000);

  it('a parallel hunt killed with SIGKILL is reclaimed slot by slot by the next command, in whichever slot it runs', async () => {
    const child = spawn(
      process.execPath,
      [
        cliPath(),
        'hunt',
        '--backend',
        'redis',
        '--resource',
        'none',
        '--faults',
        'client-pause',
        '--budget-runs',
        '30',
        '--parallel',
        '2',
        '--no-shrink',
        '--results',
        resultsDir,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
    try {
      // Both lanes' clusters up (slots 0 and 1: the lowest free), each with its Redis recorded, and a try under way.
      const recorded = await bothLanesRunning('both lanes of the hunt running a try', () => stderr, 60_000);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const left: ProcessRecord[] = recorded.filter((p) => isSameProcess(p));
      expect(left.length, 'the servers outlive a SIGKILLed command (the reclaim has something to do)').toBeGreaterThan(0);
      expect([projectNamespaces(0).length, projectNamespaces(1).length].every((n) => n > 0)).toBe(true);

      // The next command starts its cluster in slot 2: its start reclaims slots 0 and 1 on the way.
      const lines: string[] = [];
      const next = await startCluster({ ...SHARED_MACHINE, backends: ['redis'], slot: 2, runDir: join(resultsDir, 'next'), log: (l) => void lines.push(l) });
      try {
        expect(lines.filter((l) => l.startsWith('reclaimed slot '))).toHaveLength(2);
        expect(recorded.filter((p) => isSameProcess(p)).map((p) => `${p.name} ${p.pid}`)).toEqual([]);
        expect([projectNamespaces(0), projectNamespaces(1)]).toEqual([[], []]);
        expect([0, 1].map((s) => StateFile.read(defaultStateFile(s)))).toEqual([undefined, undefined]);
      } finally {
        await next.teardown();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 180_000);

  it('a parallel shrink killed with SIGKILL is reclaimed slot by slot, its PostgreSQL template too', async () => {
    // A failing run to shrink: compare's profile on Redis without a fence (a holder paused between read and write).
    const run = spawn(
      process.execPath,
      [
        cliPath(),
        'run',
        ...['--backend', 'redis', '--resource', 'none', '--nemesis', 'client-pause@holder-read', '--seed', '1'],
        ...['--time-limit', '5', '--clients', '3', '--rate', '4', '--ttl-ms', '1000', '--duration-ms', '4000', '--interval-ms', '200', '--recover-ms', '500'],
        ...['--results', join(resultsDir, 'failing')],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let runOut = '';
    run.stdout!.on('data', (d: Buffer) => void (runOut += d.toString()));
    run.stderr!.on('data', (d: Buffer) => void (runOut += d.toString()));
    const runExit = await new Promise<number | null>((r) => run.once('exit', r));
    expect(runExit, runOut).toBe(1);
    const runDir = /run directory: (\S+)/.exec(runOut)?.[1];
    expect(runDir, runOut).toBeDefined();

    const child = spawn(process.execPath, [cliPath(), 'shrink', runDir!, '--parallel', '2', '--results', join(resultsDir, 'shrunk')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
    try {
      // The original's re-runs on both lanes (slots 0 and 1: the lowest free), each cluster with its Redis recorded.
      const recorded = await bothLanesRunning('both lanes of the shrink re-running', () => out, 90_000);
      expect(pgTemplatesOf(child.pid!), 'the shrink made its PostgreSQL template').toHaveLength(1);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      expect(recorded.filter((p) => isSameProcess(p)).length, 'the servers outlive a SIGKILLed shrink').toBeGreaterThan(0);
      expect(pgTemplatesOf(child.pid!), 'a SIGKILL leaves the template').toHaveLength(1);

      const lines: string[] = [];
      const next = await startCluster({
        ...SHARED_MACHINE,
        backends: ['redis'],
        slot: 2,
        runDir: join(resultsDir, 'after-shrink'),
        log: (l) => void lines.push(l),
      });
      try {
        expect(lines.filter((l) => l.startsWith('reclaimed slot '))).toHaveLength(2);
        expect(recorded.filter((p) => isSameProcess(p)).map((p) => `${p.name} ${p.pid}`)).toEqual([]);
        expect([projectNamespaces(0), projectNamespaces(1)]).toEqual([[], []]);
        expect([0, 1].map((s) => StateFile.read(defaultStateFile(s)))).toEqual([undefined, undefined]);
        expect(pgTemplatesOf(child.pid!), 'the next cluster start swept it').toEqual([]);
      } finally {
        await next.teardown();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 240_000);
});
