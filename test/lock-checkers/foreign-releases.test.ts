/**
 * A release that removed another holder's lock (core/checkers/lock/foreign-releases.ts), as redis-lock's
 * clock-gated `DEL` does: p0's lease runs out, p1 is granted, p0 (still believing it holds) releases and
 * deletes p1's key, and p2 is granted at once while p1 holds within its lease. Its sign in the lock checker,
 * the near misses and the story; and the two look-alikes that are not it.
 */
import { describe, expect, it } from 'vitest';
import type { History } from '../../core/history/op.js';
import { foreignReleases } from '../../core/checkers/lock/foreign-releases.js';
import { mutualExclusionChecker } from '../../core/checkers/lock/mutual-exclusion.js';
import { call, context, lockHistory, section } from './lock-history.js';
import { describeNearMiss, nearMissOf } from '../../src/hunt/near-miss.js';

/** Every grant with the lease its client was given. */
function withLease(history: History, leaseMs: number): History {
  return history.map((op) => (op.f === 'acquire' && op.type === 'ok' ? { ...op, lease_ms: leaseMs } : op));
}

// p0 granted at 10 with a 500 ms lease, releases at 1200 (ok: its DEL went through); p1 granted at 700 (p0's key
// expired at 510), holds to 1600; p2, waiting since 100, is granted at `p2Granted`.
function run(p2Granted: number, p0Release = 1200, p1LeaseMs = 500): History {
  const h = lockHistory(
    section(0, 'a', 10, p0Release),
    section(1, 'b', 700, 1600),
    call(2, 'acquire', 100, p2Granted, 'ok', { token: 'c' }),
    call(2, 'release', 1700, 1701, 'ok', { token: 'c' }),
  );
  return h.map((op) => (op.f === 'acquire' && op.type === 'ok' ? { ...op, lease_ms: op.process === 1 ? p1LeaseMs : 500 } : op));
}

describe('foreign releases', () => {
  it("p0 releases after its lease ran out, while p1 holds: p2 granted at once is the foreign release's doing", () => {
    const found = foreignReleases(run(1205, 1200, 1000));
    expect(found).toEqual([{ releaser: 0, releaseAt: 1200e6, holder: 1, granted: 2, grantedAt: 1205e6 }]);
    const v = mutualExclusionChecker.check(run(1205, 1200, 1000), context());
    expect(v.valid).toBe(false);
    expect(v.stats?.['foreignReleases']).toBe(1);
    expect(v.summary).toContain("1 release(s) removed another holder's lock");
    const miss = nearMissOf(run(1205, 1200, 1000), { valid: false }, 0, 500);
    expect(miss.foreignReleases).toBe(1);
    expect(describeNearMiss(miss)).toContain("1 release that removed another holder's lock");
  });

  it("not when the holder's own lease had run out before the next grant (an expiry explains it)", () => {
    // p1's lease of 500 ms from 700 ran out at 1200: p2's grant at 1250 needs no foreign release.
    expect(foreignReleases(run(1250, 1200, 500))).toEqual([]);
  });

  it('not when the release came before anyone else was granted (an ordinary release)', () => {
    expect(foreignReleases(run(1205, 600, 1000))).toEqual([]);
  });

  it('not without a third client: the holder itself re-granted', () => {
    const h = withLease(lockHistory(section(0, 'a', 10, 1200), section(1, 'b', 700, 1100), section(1, 'b2', 1205, 1600)), 1000);
    expect(foreignReleases(h)).toEqual([]);
  });
});
