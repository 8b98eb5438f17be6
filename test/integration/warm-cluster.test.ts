/**
 * Integration (real servers, root): warm clusters. For each backend, the same
 * seeded plan runs on a fresh cluster and on a warm one (a WarmPool's cluster
 * after a reset and a clean check) and gets the same verdict, and the other
 * plan, run warm between them, the verdict it must have: an unprotected
 * counter under a holder's pause past its lease, aimed between its read and
 * its write as `npm run compare` aims it (lost updates, certain), and the
 * same with fence-claim (none, with evidence: two holders at once, the
 * stale holder refused by the resource, no stale write accepted). Then the clean check on real servers: a leftover key
 * (Redis) and a leftover lease (etcd) are found, and the reset removes them;
 * a Sentinel failover (the master moved) fails the check and the pool starts
 * the next run's cluster fresh, saying so in test.json; a kill of Redis with
 * AOF persistence (its keys replayed at restart) is reset and the cluster
 * reused, the flush itself surviving the next kill. ZooKeeper's session
 * expiry is in every zookeeper pair above: the holder paused 4 s past its
 * 1 s session, the server expires it, and the next run's clean check (no
 * session, no ephemeral znode left) passes. And in parallel: the fresh
 * plan again on the warm cluster and at once on a fresh one in a
 * neighbouring slot, both with the verdict it must have. Needs `npm run build`
 * first (clients run from dist/).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askRedis, agreedMaster } from '../../runtime/clients/sentinel-probes.js';
import { httpJson } from '../../runtime/cluster/probes.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { cleanCheck, resetCluster } from '../../runtime/cluster/warm/reset-cluster.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { storedOutcome } from '../../core/run-files/stored-outcome.js';
import { runClusterOptions, runLockTest, type RunResult } from '../../src/run/run-lock-test.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { aimedScript, planRun } from '../../core/plan/run-plan.js';
import { type ClusterRecord } from '../../core/run-files/cluster-record.js';
import type { LockBackend, ResourceMode } from '../../core/vocabulary.js';
import { NEIGHBOUR_SLOT, SHARED_MACHINE, waitFor, slotWarmPool } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-warm-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));
const log = (l: string): void => console.log(`  ${l}`);

function plan(backend: LockBackend, resource: ResourceMode): RunOptions {
  const o: RunOptions = {
    ...DEFAULTS,
    backend,
    resource,
    workload: 'lock-counter',
    nemesis: ['client-pause'],
    // npm run compare's profile: one pause aimed at a holder between its read and its write (its write already
    // sent), 4 s, past the lease on every backend (etcd raises 1 s to its 2 s minimum): certain, not likely.
    timeLimitS: 5,
    clients: 3,
    ttlMs: 1000,
    rate: 4,
    intervalMs: 200,
    durationMs: 4000,
    recoverMs: 500,
    seed: 3,
    resultsDir,
  };
  return { ...o, script: aimedScript(o, { 'client-pause': 'holder-read' }) };
}

/**
 * The verdict the plan decides: the run's outcome (unsafe, safe with evidence, untested) and whether
 * updates were lost. Which other checkers fire (an interleaving caught, say) depends on timing, fresh or
 * warm alike, so they are printed, not compared.
 */
function verdictOf(r: RunResult): Record<string, unknown> {
  const results = readResultsJson(r.runDir)!;
  return { outcome: storedOutcome(results).outcome, 'lost-updates': r.verdicts.find((v) => v.checker === 'lost-updates')?.valid };
}

const allVerdicts = (r: RunResult): string => r.verdicts.map((v) => `${v.checker}=${String(v.valid)}`).join(' ');

/**
 * The fenced resource mode a backend's token allows, the one whose verdict is certain: fence-claim (the read
 * raises the fence too; a write-only `fence` lets a stale holder write first and lose the next holder's
 * update, as a fresh redis-sentinel run did), and for Redlock, which has no monotonic token, antirez's
 * unique-token check-and-set.
 */
const fenced = (backend: LockBackend): ResourceMode => (backend === 'redlock' ? 'cas-unique' : 'fence-claim');

const clusterOf = (r: RunResult): ClusterRecord => readTestJson(r.runDir)!['cluster'] as unknown as ClusterRecord;
const hooks = { log, busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs };

/**
 * Which plan each backend runs fresh: its first run, on the pool's fresh cluster, is run again last on the warm one.
 * Half the backends start with the unprotected plan, half with the fenced one, so that each plan is run fresh and
 * warm on some backend; the other plan runs warm only, and is held to the same expected verdict.
 */
const FRESH_FENCED: ReadonlySet<LockBackend> = new Set(['redlock', 'zookeeper']);
const EXPECTED: Record<'none' | 'fenced', ReturnType<typeof verdictOf>> = {
  // The danger happened: the paused holder's write, sent before the next holder's, clobbered it (a lost update).
  none: { outcome: 'unsafe', 'lost-updates': false },
  // The fence held with evidence.
  fenced: { outcome: 'safe', 'lost-updates': true },
};

describe.each(['redis', 'redlock', 'etcd', 'zookeeper', 'redis-sentinel'] as const)('warm cluster: %s', (backend) => {
  it('the same plans get the same verdicts fresh and warm', async () => {
    const pool = slotWarmPool();
    try {
      const kinds = FRESH_FENCED.has(backend) ? (['fenced', 'none', 'fenced'] as const) : (['none', 'fenced', 'none'] as const);
      const runs: RunResult[] = [];
      for (const kind of kinds) runs.push(await runLockTest(plan(backend, kind === 'none' ? 'none' : fenced(backend)), { ...hooks, warm: pool }));
      const [fresh, other, warm] = runs as [RunResult, RunResult, RunResult];
      expect(clusterOf(fresh)).toMatchObject({ fresh: true, reusedAfterRuns: 0 });
      expect(clusterOf(other)).toMatchObject({ fresh: false, reusedAfterRuns: 1, cleanCheck: { ok: true, problems: [] } });
      expect(clusterOf(warm)).toMatchObject({ fresh: false, reusedAfterRuns: 2, cleanCheck: { ok: true, problems: [] } });
      // Every worker's client of a reused run was a spare the run before started during its recovery (none on a fresh cluster).
      expect(clusterOf(fresh).clientsFromSpares).toBeUndefined();
      for (const r of [other, warm]) expect(clusterOf(r).clientsFromSpares).toBe(plan(backend, 'none').clients);
      runs.forEach((r, i) =>
        console.log(`${backend} ${i === 0 ? 'fresh' : 'warm'} ${kinds[i]}: ${JSON.stringify(verdictOf(r))} (${allVerdicts(r)}) ${r.runDir}`),
      );
      runs.forEach((r, i) => expect(verdictOf(r), `${backend} run ${i + 1} (${kinds[i]})`).toEqual(EXPECTED[kinds[i]!]));
      expect(verdictOf(warm)).toEqual(verdictOf(fresh));
      // In parallel slots: the fresh plan once more on this slot's warm cluster and, at the same time, on a fresh
      // cluster in a neighbouring slot (as `--parallel 2` runs two lanes).
      const neighbour = slotWarmPool(NEIGHBOUR_SLOT);
      const fenceOf = (kind: 'none' | 'fenced'): ResourceMode => (kind === 'none' ? 'none' : fenced(backend));
      try {
        const side = await Promise.all([
          runLockTest(plan(backend, fenceOf(kinds[0])), { ...hooks, warm: pool }),
          runLockTest(plan(backend, fenceOf(kinds[0])), { ...hooks, warm: neighbour }),
        ]);
        // Its clients spoke to the neighbour slot's addresses (its /24: core/cluster/slots.ts slotSubnet).
        expect(readFileSync(join(side[1].runDir, 'logs', 'client1-1.log'), 'utf8')).toContain(`10.77.${NEIGHBOUR_SLOT}.`);
        side.forEach((r, i) =>
          console.log(`${backend} parallel ${i === 0 ? 'warm' : 'fresh, slot ' + NEIGHBOUR_SLOT} ${kinds[0]}: ${JSON.stringify(verdictOf(r))} ${r.runDir}`),
        );
        for (const r of side) expect(verdictOf(r), `${backend} in parallel slots`).toEqual(verdictOf(fresh));
        runs.push(...side);
      } finally {
        await neighbour.close(log);
      }
      // What test/integration/runs.test.ts once asserted of its own runs of the same matrix: the pause took effect
      // (two holders at once) every time, and in a fenced run the resource, not luck, kept the data right.
      const by = (r: RunResult, name: string) => r.verdicts.find((v) => v.checker === name)!;
      for (const r of runs) expect(by(r, 'mutual-exclusion').valid).toBe(false);
      for (const r of runs.filter((_, i) => (kinds[i] ?? kinds[0]) === 'fenced')) {
        expect(by(r, 'stale-writes').valid).toBe(true);
        const stats = by(r, 'access-stats').stats ?? {};
        expect((stats['write.rejected'] ?? 0) + (stats['read.rejected'] ?? 0)).toBeGreaterThan(0);
      }
    } finally {
      await pool.close(log);
    }
  }, 240_000);
});

describe('the clean check on real servers', () => {
  it('finds a leftover Redis key and etcd lease, and the reset removes them', async () => {
    for (const backend of ['redis', 'etcd'] as const) {
      const pool = slotWarmPool();
      try {
        const p = planRun(plan(backend, 'fence'));
        const { cluster } = await pool.take(runClusterOptions(p, join(resultsDir, `dirty-${backend}`), hooks, log), log);
        expect((await cleanCheck(cluster, log)).problems).toEqual([]);
        const node = cluster.plan.nodes.find((n) => n.backend === backend)!;
        if (backend === 'redis') await askRedis(node.ip, node.port, (r) => r.set('fencecheck-lock', 'left-behind'));
        else await httpJson(`http://${node.ip}:${node.port}/v3/lease/grant`, { method: 'POST', body: JSON.stringify({ TTL: 60 }) });
        const dirty = await cleanCheck(cluster, log);
        expect(dirty.ok).toBe(false);
        expect(dirty.problems).toEqual([backend === 'redis' ? `${node.name}: 1 keys left (fencecheck-lock)` : 'etcd: 1 leases left']);
        await resetCluster(cluster, log);
        expect(await cleanCheck(cluster, log)).toMatchObject({ ok: true, problems: [] });
      } finally {
        await pool.close(log);
      }
    }
  }, 120_000);

  it('a kill of Redis with AOF persistence: the restarted node replays its keys, the reset flushes them, the next run reuses the cluster', async () => {
    const pool = slotWarmPool();
    try {
      const killed: RunOptions = {
        ...plan('redis', 'fence-claim'),
        nemesis: ['kill'],
        script: [{ at: 1000, until: 2000, fault: 'kill', target: { kind: 'node', node: 'redis1' } }],
        redisPersistence: 'aof-always',
      };
      const first = await runLockTest(killed, { ...hooks, warm: pool });
      const next = await runLockTest(killed, { ...hooks, warm: pool });
      const results = readResultsJson(first.runDir)!;
      // The kill struck (applied, the node restarted from its AOF) and the next run's cluster was the same one, reset and clean.
      expect(results.evidence!.faults.applied).toBe(1);
      expect(clusterOf(first)).toMatchObject({ fresh: true });
      expect(clusterOf(next)).toMatchObject({ fresh: false, reusedAfterRuns: 1, cleanCheck: { ok: true, problems: [] } });
      // What the reset cleared: the AOF-replayed lock key or fence counter survived the kill, and the flush is in the AOF too.
      const { cluster } = await pool.take(runClusterOptions(planRun(killed), join(resultsDir, 'aof-check'), hooks, log), log);
      const node = cluster.plan.nodes.find((n) => n.backend === 'redis')!;
      expect(await askRedis(node.ip, node.port, (r) => r.keys('*'))).toEqual([]);
      await cluster.nemesis.kill('redis1');
      await cluster.nemesis.restart('redis1');
      expect(await askRedis(node.ip, node.port, (r) => r.keys('*'))).toEqual([]);
    } finally {
      await pool.close(log);
    }
  }, 180_000);

  it('a Sentinel failover fails the check: the next run starts fresh and says why', async () => {
    const pool = slotWarmPool();
    try {
      const first = await runLockTest(plan('redis-sentinel', 'fence'), { ...hooks, warm: pool });
      const p = planRun(plan('redis-sentinel', 'fence'));
      const { cluster } = await pool.take(runClusterOptions(p, join(resultsDir, 'failover'), hooks, log), log);
      const sentinels = cluster.plan.nodes.filter((n) => n.backend === 'redis-sentinel' && n.role === 'sentinel').map((n) => ({ host: n.ip, port: n.port }));
      const before = await agreedMaster(sentinels);
      await askRedis(sentinels[0]!.host, sentinels[0]!.port, (r) => r.call('SENTINEL', 'failover', 'fencecheck'));
      await waitFor(
        'the Sentinels to agree on another master',
        async () => {
          const m = await agreedMaster(sentinels);
          return m !== undefined && m !== before ? m : undefined;
        },
        30_000,
      );
      const next = await runLockTest(plan('redis-sentinel', 'fence'), { ...hooks, warm: pool });
      const record = clusterOf(next);
      expect(clusterOf(first).fresh).toBe(true);
      expect(record.fresh).toBe(true);
      expect(record.cleanCheck?.ok).toBe(false);
      expect(record.freshBecause).toMatch(/^the clean check failed: .*the Sentinels name .* as master, planned rs1/);
    } finally {
      await pool.close(log);
    }
  }, 180_000);
});
