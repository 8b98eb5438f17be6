/**
 * Integration (real servers, root): one short lock run per backend, both
 * outcomes. Without a fence, a client paused past its TTL while holding the
 * lock writes late and the counter loses increments (or a stale write is
 * accepted); with a fence the resource checks on every access (fence-claim,
 * or antirez's unique-token check-and-set for Redlock, which has no
 * monotonic token), no increment is lost and no stale write is accepted,
 * although the lock itself was held twice (mutual exclusion fails either way:
 * a lease is not a mutex).
 *
 * And S7 on redis-sentinel: the master cut off from its replicas grants the
 * lock, is killed, and the replica Sentinel promotes grants it again to the
 * other client, with the same INCR token.
 *
 * Each run starts its own cluster and tears it down; runs go one at a time.
 * Needs `npm run build` first (clients run from dist/).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import { DEFAULTS } from '../../core/plan/run-options.js';
import { lockOps } from '../../core/checkers/lock/lock-ops.js';
import type { History } from '../../core/history/op.js';
import { readHistory } from '../../src/history/read-history.js';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { lostGrants, tokenRegressions } from '../../src/scenarios/lost-grants.js';
import { variantRunOptions } from '../../src/scenarios/variant-options.js';
import { SHARED_MACHINE } from './helpers.js';
import type { LockBackend, ResourceMode } from '../../core/vocabulary.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-runs-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

async function run(backend: LockBackend, resource: ResourceMode) {
  const r = await runLockTest(
    {
      ...DEFAULTS,
      backend,
      resource,
      workload: 'lock-counter',
      nemesis: ['client-pause'],
      timeLimitS: 16,
      clients: 3,
      // etcd grants leases of at least 2 s; ZooKeeper's shortest session here is 1 s.
      ttlMs: backend === 'etcd' ? 2000 : 1000,
      rate: 4,
      intervalMs: 2000,
      durationMs: 3000,
      recoverMs: 2000,
      seed: 1,
      resultsDir,
    },
    { log: (l) => console.log(`  ${l}`), busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs },
  );
  const by = (name: string): CheckerVerdict => r.verdicts.find((v) => v.checker === name)!;
  console.log(`${backend}/${resource}: ${r.verdicts.map((v) => `${v.checker}=${String(v.valid)}`).join(' ')} (${r.runDir})`);
  return { r, by };
}

describe.each<[LockBackend, ResourceMode]>([
  ['redis', 'fence-claim'],
  ['redlock', 'cas-unique'],
  ['etcd', 'fence-claim'],
  ['zookeeper', 'fence-claim'],
])('%s under a client pause', (backend, fenced) => {
  it('without a fence, loses increments or accepts a stale write', async () => {
    const { r, by } = await run(backend, 'none');
    expect(r.valid).toBe(false);
    const data = [by('lost-updates'), by('stale-writes')];
    expect(data.some((v) => v.valid === false)).toBe(true);
    // The pause really happened and someone else took the lock meanwhile.
    expect(by('mutual-exclusion').valid).toBe(false);
  });

  it(`with ${fenced}, loses nothing and accepts no stale write that its check could have refused, because the resource refused the stale holder`, async () => {
    const { r, by } = await run(backend, fenced);
    expect(by('lost-updates').valid).toBe(true);
    if (fenced === 'cas-unique') {
      // A unique token is not a fence: a holder paused between its grant and its mark marks the resource
      // after the next holder did, and its write passes the check (S6 late-mark-cas-unique). Where the
      // pause lands is up to timing (CI saw it once), so what is asserted is the check itself: every
      // accepted stale write had no other holder's mark land between its own mark and its write.
      const history = await readHistory(join(r.runDir, 'history.jsonl'));
      for (const a of by('stale-writes').anomalies.filter((x) => x.kind === 'stale-write')) {
        console.log(`  cas-unique stale write through a late mark: ${a.message}`);
        expect(markBetween(history, a.processes[0]!, Math.max(...a.opIndexes))).toBeNull();
      }
    } else {
      expect(by('stale-writes').valid).toBe(true);
    }
    // The pause took effect (two holders at once), and the fence, not luck, kept the data right: it refused someone.
    expect(by('mutual-exclusion').valid).toBe(false);
    const stats = by('access-stats').stats ?? {};
    expect((stats['write.rejected'] ?? 0) + (stats['read.rejected'] ?? 0)).toBeGreaterThan(0);
  });
});

describe('redis-sentinel: S7, the master killed after a grant that never reached a replica', () => {
  it('the promoted replica grants the lock again while the first holder holds it, under the same INCR token', async () => {
    const s7 = findScenario('S7');
    const [variant] = selectVariants(s7, ['failover-fence']);
    const r = await runLockTest(variantRunOptions(s7, variant!, 1, resultsDir), { log: (l) => console.log(`  ${l}`), busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs });
    const history = await readHistory(join(r.runDir, 'history.jsonl'));
    const lost = lostGrants(history);
    console.log(`redis-sentinel S7: lost grants ${JSON.stringify(lost)} (${r.runDir})`);
    // The faults struck: the partition and the kill, both applied without error.
    const applied = history.filter((op) => op.process === 'nemesis' && op.type === 'info' && (op.f === 'start-partition' || op.f === 'kill') && op.error === undefined);
    expect(applied.map((op) => op.f)).toEqual(['start-partition', 'kill']);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost[0]!.secondToken).toBe(lost[0]!.firstToken);
    expect(tokenRegressions(history)).toBeGreaterThan(0);
    expect(r.verdicts.find((v) => v.checker === 'mutual-exclusion')!.valid).toBe(false);
  });
});

/**
 * Another process's mark that surely landed between `writer`'s last mark and its write (invoked after
 * the mark completed, completed before the write was invoked), as "p3 at #120", or null. With one,
 * the cas-unique write should have been refused. `writeEnd` is the index of the write's completion.
 */
function markBetween(history: History, writer: number, writeEnd: number): string | null {
  const ops = lockOps(history);
  const write = ops.find((o) => o.process === writer && o.f === 'write' && o.completeIndex === writeEnd);
  const mark = ops.filter((o) => o.process === writer && o.f === 'mark' && write !== undefined && (o.completeIndex ?? Infinity) < write.invokeIndex).at(-1);
  if (write === undefined || mark === undefined) return `no write ending at #${writeEnd} after a mark by p${writer}`;
  const other = ops.find((o) => o.process !== writer && o.f === 'mark' && o.status === 'ok' && o.invokeIndex > mark.completeIndex! && o.completeIndex! < write.invokeIndex);
  return other === undefined ? null : `p${other.process} at #${other.completeIndex!}`;
}
