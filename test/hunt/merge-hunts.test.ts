/**
 * Merging the shards of a sharded hunt: two simulated shards of one hunt
 * become one answer (every try of both, in the order they ended, the first
 * violation the earliest of any shard, the weight over every tested try);
 * hunt directories that are not shards of one hunt are a 254 with a hint.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHunt, type HuntOptions } from '../../src/hunt/run-hunt.js';
import { mergeHunts } from '../../src/hunt/merge-hunts.js';
import { huntFaults } from '../../src/hunt/hunt-target.js';
import { UsageError } from '../../core/errors.js';
import { testSeed } from '../support/seed.js';
import { simHuntDeps } from './sim-hunt-deps.js';

const dir = (): string => madeTempDir('fc-hunt-merge-');
const fenced = { backend: 'redis' as const, resource: 'fence-claim' as const, workload: 'lock-counter' as const };
const options = (over: Partial<HuntOptions>): HuntOptions => ({
  target: fenced,
  faults: huntFaults(fenced, ['client-pause', 'partition']),
  budget: { runs: 4 },
  seed: 1,
  huntDir: dir(),
  keepGoing: false,
  shape: { timeLimitS: 5, clients: 3, ttlMs: 500 },
  ...over,
});

describe('merging sharded hunts', () => {
  it("takes every shard's tries as one hunt and weighs them together", async () => {
    const seed = testSeed('hunt merge', 'test/hunt/merge-hunts.test.ts');
    const a = options({ seed, shard: { index: 1, count: 2 } });
    const b = options({ seed, shard: { index: 2, count: 2 } });
    const [ra, rb] = [await runHunt(a, simHuntDeps()), await runHunt(b, simHuntDeps())];
    const merged = mergeHunts([a.huntDir, join(b.huntDir, 'hunt.json')]);
    expect(merged.records).toHaveLength(ra.records.length + rb.records.length);
    expect(merged.shards).toEqual(['1/2', '2/2']);
    expect(merged.records.map((r) => r.endedAtMs)).toEqual([...merged.records.map((r) => r.endedAtMs)].sort((x, y) => x - y));
    expect(merged.violations).toBe(ra.violations + rb.violations);
    expect(merged.tested).toBe(ra.tested + rb.tested);
    if (merged.violations === 0 && merged.tested > 0) {
      expect(merged.exitCode).toBe(0);
      expect(merged.lines[1]).toMatch(new RegExp(`^no violation in ${merged.tested} tr(y|ies), ${merged.moments} dangerous moments? tested`));
    }
    console.log(`[hunt merge] ${merged.lines.join(' | ')}`);
  }, 120_000);

  it('the first violation is the earliest any shard found', async () => {
    const unfenced = { backend: 'redis' as const, resource: 'none' as const, workload: 'lock-counter' as const };
    const seed = testSeed('hunt merge violation', 'test/hunt/merge-hunts.test.ts');
    const shards = [1, 2].map((index) => options({ seed, target: unfenced, faults: ['client-pause'], budget: { runs: 6 }, shard: { index, count: 2 } }));
    const reports = [];
    for (const o of shards) reports.push(await runHunt(o, simHuntDeps()));
    const merged = mergeHunts(shards.map((o) => o.huntDir));
    const firsts = reports.filter((r) => r.found).map((r) => r.found!.afterMs);
    expect(firsts.length).toBeGreaterThan(0);
    expect(merged.exitCode).toBe(1);
    expect(merged.found!.afterMs).toBe(Math.min(...firsts));
    expect(merged.found!.tryNumber).toBe(merged.records.findIndex((r) => r.outcome === 'unsafe') + 1);
  }, 120_000);

  it('refuses what is not the shards of one hunt, with a hint', async () => {
    const a = options({ shard: { index: 1, count: 2 }, budget: { runs: 1 } });
    const other = options({ seed: 2, shard: { index: 2, count: 2 }, budget: { runs: 1 } });
    await runHunt(a, simHuntDeps());
    await runHunt(other, simHuntDeps());
    const bad = (paths: string[], message: RegExp): void => {
      let err: unknown;
      try {
        mergeHunts(paths);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(254);
      expect((err as Error).message).toMatch(message);
      expect((err as UsageError).hint).toMatch(/--shard i\/N/);
    };
    bad([a.huntDir, a.huntDir], /shard 1\/2 given twice/);
    bad([a.huntDir, other.huntDir], /not a shard of the same hunt/);
    bad([dir()], /not a hunt directory \(no hunt\.json\)/);
    const junk = join(dir(), 'hunt.json');
    writeFileSync(junk, '{ nope');
    bad([junk], /not a hunt\.json/);
  }, 120_000);
});
