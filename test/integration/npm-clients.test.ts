/**
 * Integration (real servers, root): the npm lock libraries' reference clients
 * (clients/node, speaking docs/client-protocol.md) against real clusters.
 *
 * 1. client-check on one cluster (redis, redlock, etcd, PostgreSQL): each client
 *    passes with the token kind its library exposes (simple-redis-mutex's
 *    fencingToken monotonic, the others unique), and its paused holder's late
 *    access is refused (fenced or mark changed), not skipped.
 * 2. Runs: simple-redis-mutex unfenced under S1's paused holders loses updates or
 *    writes stale data; with its fencingToken as the fence, nothing is lost and
 *    the resource refuses someone.
 *
 * Needs the npm libraries in clients/node (`npm run setup -- --node`; CI runs it):
 * without them every test here is skipped, with a warning that says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { nodeClientsInstalled } from '../../runtime/cluster/install-node-clients.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { findScenario } from '../../src/scenarios/catalogue.js';
import { variantRunOptions } from '../../src/scenarios/variant-options.js';
import { checkClientOn, type ClientCheckResult } from '../../runtime/client-check/run-client-check.js';
import { commandLine, namedClient } from '../../runtime/runner/client-registry.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { leftovers, NOTHING_LEFT, SHARED_MACHINE } from './helpers.js';
import type { LockService } from '../../core/vocabulary.js';

const installed = nodeClientsInstalled();
if (!installed) console.warn('[npm-clients] SKIPPED every npm reference client: clients/node/node_modules is not installed (npm run setup -- --node)');

const command = (name: string): string => commandLine(namedClient(name)!.argv(projectRoot()));
const statusOf = (r: ClientCheckResult, check: string) => r.checks.find((c) => c.check === check);

describe.skipIf(!installed)('the npm lock libraries as clients', () => {
  const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-npm-clients-'));
  afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

  describe('client-check on a real cluster', () => {
    let cluster: Cluster;

    beforeAll(async () => {
      cluster = await startCluster({
        backends: ['redis', 'redlock', 'etcd', 'postgres'],
        clientHosts: ['c1', 'c2'],
        runDir: join(resultsDir, 'client-check'),
        ...SHARED_MACHINE,
      });
    });

    afterAll(async () => {
      await cluster?.teardown();
    });

    it.each([
      ['redis-semaphore', 'unique', 'mark-changed'],
      ['simple-redis-mutex', 'monotonic', 'fenced'],
      ['redis-semaphore-redlock', 'unique', 'mark-changed'],
      ['sesamecare-redlock', 'unique', 'mark-changed'],
      ['etcd3-lock', 'unique', 'mark-changed'],
    ] as const)('%s passes with %s tokens, and its paused holder is refused (%s)', async (name, token, refusal) => {
      const backend = namedClient(name)!.backends[0]! as LockService;
      const r = await checkClientOn(cluster, {
        backend,
        client: command(name),
        callTimeoutMs: 1000,
        onCheck: (c) => console.log(`  ${name} ${c.status} ${c.check}: ${c.evidence}`),
      });
      expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(r.passed).toBe(true);
      expect(r.token).toBe(token);
      expect(statusOf(r, 'fence')?.status).toBe(token === 'monotonic' ? 'pass' : 'skip');
      // The danger happened and was refused, not skipped: B was granted during A's pause and A's late access bounced.
      expect(statusOf(r, 'paused-holder')).toMatchObject({ status: 'pass', evidence: expect.stringContaining(refusal) });
    });
  });

  describe('runs under paused holders (S1)', () => {
    const s1 = (label: string): RunOptions => ({
      ...variantRunOptions(
        findScenario('S1'),
        findScenario('S1').variants.find((v) => v.label === label)!,
        1,
        resultsDir,
      ),
      client: command('simple-redis-mutex'),
    });
    const by = (r: { verdicts: CheckerVerdict[] }, name: string) => r.verdicts.find((v) => v.checker === name)!;
    const hooks = { log: (l: string) => console.log(`  ${l}`), busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs };

    it('simple-redis-mutex without a fence: updates lost or stale writes accepted', async () => {
      const r = await runLockTest(s1('redis-none'), hooks);
      expect(r.valid).toBe(false);
      expect([by(r, 'lost-updates'), by(r, 'stale-writes')].some((v) => v.valid === false)).toBe(true);
      expect(await leftovers()).toEqual(NOTHING_LEFT);
    });

    it('simple-redis-mutex with its fencingToken as the fence: nothing lost, and the fence refused the paused holder', async () => {
      const r = await runLockTest(s1('redis-fence'), hooks);
      expect(by(r, 'lost-updates').valid).toBe(true);
      expect(by(r, 'stale-writes').valid).toBe(true);
      expect(by(r, 'access-stats').stats?.['write.rejected'] ?? 0).toBeGreaterThan(0);
      expect(await leftovers()).toEqual(NOTHING_LEFT);
    });
  });
});
