/**
 * Integration (real servers, root): S7 on redis-sentinel: the master cut off from its replicas grants the
 * lock, is killed, and the replica Sentinel promotes grants it again to the
 * other client, with the same INCR token.
 *
 * (One short lock run per backend with both outcomes, unprotected and
 * fenced, is warm-cluster.test.ts's fresh runs: it asserts what this file
 * did, the lock held twice, the data broken without a fence and kept by the
 * fence's refusals, with the pause aimed so that the verdicts are certain.)
 *
 * The run starts its own cluster and tears it down.
 * Needs `npm run build` first (clients run from dist/).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import { readHistory } from '../../src/history/read-history.js';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { lostGrants, tokenRegressions } from '../../src/scenarios/lost-grants.js';
import { variantRunOptions } from '../../src/scenarios/variant-options.js';
import { SHARED_MACHINE } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-runs-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

describe('redis-sentinel: S7, the master killed after a grant that never reached a replica', () => {
  it('the promoted replica grants the lock again while the first holder holds it, under the same INCR token', async () => {
    const s7 = findScenario('S7');
    const [variant] = selectVariants(s7, ['failover-fence']);
    const r = await runLockTest(variantRunOptions(s7, variant!, 1, resultsDir), {
      log: (l) => console.log(`  ${l}`),
      ...SHARED_MACHINE,
    });
    const history = await readHistory(join(r.runDir, 'history.jsonl'));
    const lost = lostGrants(history);
    console.log(`redis-sentinel S7: lost grants ${JSON.stringify(lost)} (${r.runDir})`);
    // The faults struck: the partition and the kill, both applied without error.
    const applied = history.filter(
      (op) => op.process === 'nemesis' && op.type === 'info' && (op.f === 'start-partition' || op.f === 'kill') && op.error === undefined,
    );
    expect(applied.map((op) => op.f)).toEqual(['start-partition', 'kill']);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost[0]!.secondToken).toBe(lost[0]!.firstToken);
    expect(tokenRegressions(history)).toBeGreaterThan(0);
    expect(r.verdicts.find((v) => v.checker === 'mutual-exclusion')!.valid).toBe(false);
  });
});
