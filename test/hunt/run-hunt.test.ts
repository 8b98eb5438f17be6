/**
 * The hunt loop end to end over the deterministic simulation (the real
 * interpreter, checkers and search; virtual time instead of a cluster):
 * finds the paused holder's lost update on an unprotected resource, weighs
 * its silence on a fenced one, says untested when no fault could strike,
 * stops at the first violation unless asked not to, and ends cleanly when
 * stopped.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHunt, type HuntOptions } from '../../src/hunt/run-hunt.js';
import { EXIT_UNTESTED } from '../../src/hunt/hunt-outcome.js';
import { huntFaults } from '../../src/hunt/hunt-target.js';
import { testSeed } from '../support/seed.js';
import { simHuntDeps } from './sim-hunt-deps.js';

const huntDir = (): string => madeTempDir('fc-hunt-');
const options = (over: Partial<HuntOptions>): HuntOptions => ({
  target: { backend: 'redis', resource: 'none', workload: 'lock-counter' },
  faults: ['client-pause'],
  budget: { runs: 20 },
  seed: 1,
  huntDir: huntDir(),
  keepGoing: false,
  shape: { timeLimitS: 6, clients: 3, ttlMs: 500 },
  ...over,
});

describe('the hunt, simulated', () => {
  it("finds a paused holder's lost update on redis with no fence, stops there, and says where", async () => {
    const seed = testSeed('hunt finds', 'test/hunt/run-hunt.test.ts');
    const o = options({ seed });
    const deps = simHuntDeps();
    const r = await runHunt(o, deps);
    expect(r.exitCode).toBe(1);
    expect(r.found).not.toBeNull();
    expect(r.records).toHaveLength(r.found!.tryNumber);
    expect(r.lines[0]).toMatch(
      new RegExp(
        `^VIOLATION: 1 of ${r.found!.tryNumber} tr(y|ies) violated; the first on try ${r.found!.tryNumber} after \\S+ \\(runs-to-detection ${r.found!.tryNumber}, time-to-detection \\S+\\)$`,
      ),
    );
    expect(r.lines).toContain(`shrink: fencecheck shrink ${r.found!.record.runDir}`);
    console.log(`[hunt finds] runs-to-detection ${r.found!.tryNumber}: ${r.lines.join(' | ')}`);
    const json = JSON.parse(readFileSync(join(o.huntDir, 'hunt.json'), 'utf8'));
    expect(json.exitCode).toBe(1);
    expect(json.tries).toHaveLength(r.records.length);
    expect(json.tries.at(-1).outcome).toBe('unsafe');
  }, 60_000);

  it('with --keep-going spends the budget and counts every violation', async () => {
    const r = await runHunt(options({ keepGoing: true, budget: { runs: 8 } }), simHuntDeps());
    expect(r.records).toHaveLength(8);
    expect(r.violations).toBeGreaterThan(1);
    expect(r.exitCode).toBe(1);
  }, 60_000);

  it('asked for a sign (--want) no violation shows, goes on past the others and says so', async () => {
    const o = options({ budget: { runs: 5 }, want: 'valid-double-hold' });
    const r = await runHunt(o, simHuntDeps());
    // A paused holder's late write breaks the data, but no two holders were ever both within their validity.
    expect(r.records).toHaveLength(5);
    expect(r.found).toBeNull();
    expect(r.records.filter((t) => t.outcome === 'other-violation').length).toBeGreaterThan(0);
    expect(r.records.every((t) => t.outcome !== 'unsafe')).toBe(true);
    expect(r.exitCode).toBe(1);
    expect(r.lines[0]).toMatch(/^VIOLATION of another kind: \d+ of 5 tries broke the data without a valid-double-hold \(--want\)/);
    expect(r.lines).toContain('the failure asked for was not found: no try showed a valid-double-hold');
    const json = JSON.parse(readFileSync(join(o.huntDir, 'hunt.json'), 'utf8'));
    expect(json.want).toBe('valid-double-hold');
  }, 60_000);

  it('asked for a sign a violation shows, stops there (Redlock, a clock jump where two majorities meet)', async () => {
    const target = { backend: 'redlock' as const, resource: 'none' as const, workload: 'lock-counter' as const };
    const o = options({
      target,
      faults: ['clock', 'partition'],
      budget: { runs: 40 },
      want: 'valid-double-hold',
      shape: { timeLimitS: 6, clients: 3, ttlMs: 1000 },
    });
    const r = await runHunt(o, simHuntDeps());
    console.log(`[hunt --want] ${r.lines.join(' | ')}`);
    // Seed 1 of the simulation finds it on its fourth try; a search that stops finding it is a regression.
    expect(r.found).not.toBeNull();
    expect(r.found!.record.miss!.validDoubleHolds).toBeGreaterThan(0);
    expect(r.found!.record.plan.windows.some((w) => w.fault === 'clock')).toBe(true);
    expect(r.lines[0]).toMatch(/^VIOLATION: 1 of \d+ tr(y|ies) violated with a valid-double-hold/);
  }, 120_000);

  it('on a fenced resource finds no violation and weighs the silence', async () => {
    const target = { backend: 'redis' as const, resource: 'fence-claim' as const, workload: 'lock-counter' as const };
    const r = await runHunt(
      options({ target, faults: huntFaults(target, ['client-pause', 'server-pause', 'partition']), budget: { runs: 12 } }),
      simHuntDeps(),
    );
    expect(r.violations).toBe(0);
    expect(r.exitCode).toBe(0);
    expect(r.tested).toBeGreaterThan(0);
    expect(r.lines[1]).toMatch(
      new RegExp(
        `^no violation in ${r.tested} tr(y|ies), ${r.moments} dangerous moments? tested: a failure that shows in at least [0-9.]+ % of tries would have been found with 95 % confidence$`,
      ),
    );
  }, 60_000);

  it('says untested (exit 3) when no fault put the lock to the test', async () => {
    // Killing one of etcd's three nodes keeps its quorum: the kills strike, the lock never fails, nothing is tested.
    const target = { backend: 'etcd' as const, resource: 'none' as const, workload: 'lock-counter' as const };
    const r = await runHunt(options({ target, faults: ['kill'], budget: { runs: 3 } }), simHuntDeps());
    expect(r.exitCode).toBe(EXIT_UNTESTED);
    expect(r.lines[0]).toMatch(/^UNTESTED: 3 tries, none put the protection to the test/);
  }, 60_000);

  it('stops cleanly when asked, keeping only the tries that ended', async () => {
    const r = await runHunt(options({ keepGoing: true, budget: { runs: 10 } }), simHuntDeps({ stopAfter: 3 }));
    expect(r.interrupted).toBe(true);
    expect(r.records).toHaveLength(2);
    expect(r.lines[0]).toContain('2 tries (interrupted)');
  }, 60_000);

  it('a time budget stops starting tries once spent', async () => {
    const r = await runHunt(options({ keepGoing: true, budget: { ms: 20_000 } }), simHuntDeps());
    // Each simulated try "takes" 8 s: tries start at 0, 8 and 16 s.
    expect(r.records).toHaveLength(3);
  }, 60_000);

  it('shards search their own ways: each shard its own plans from the same seed', async () => {
    const plans = async (index: number): Promise<string> => {
      const r = await runHunt(options({ keepGoing: true, budget: { runs: 3 }, shard: { index, count: 2 } }), simHuntDeps());
      return JSON.stringify(r.records.map((t) => t.plan.windows));
    };
    const [one, two] = [await plans(1), await plans(2)];
    expect(one).not.toBe(two);
    expect(await plans(1)).toBe(one);
  }, 60_000);

  it('refuses faults that cannot reach the target, saying why', () => {
    expect(() => huntFaults({ backend: 'etcd', resource: 'fence-claim', workload: 'lock-counter' }, ['clock'])).toThrow(
      /Cannot hunt with `clock` on etcd \/ fence-claim: etcd is a Go program/,
    );
    expect(huntFaults({ backend: 'etcd', resource: 'fence-claim', workload: 'lock-counter' }, undefined)).not.toContain('clock');
  });
});

describe("the hunt's progress lines", () => {
  it('count a violating try as tested, and give no ETA once the hunt stops', async () => {
    const deps = simHuntDeps();
    const logged: string[] = [];
    deps.log = (l) => void logged.push(l);
    const r = await runHunt(options({ seed: 1 }), deps);
    expect(r.found).not.toBeNull();
    const progress = logged.filter((l) => l.startsWith('hunt: try ') && l.includes(' done · '));
    expect(progress).toHaveLength(r.records.length);
    const tested = r.records.filter((t) => t.outcome === 'safe' || t.outcome === 'unsafe' || t.outcome === 'other-violation').length;
    expect(progress.at(-1)).toContain(` · ${tested} tested · `);
    // The hunt stopped at the violation: nothing is left to estimate.
    expect(progress.at(-1)).not.toMatch(/ETA/);
    expect(progress.at(-1)).toMatch(/ · stopped at the violation$/);
    for (const line of progress.slice(0, -1)) expect(line).toMatch(/ · ETA /);
  }, 60_000);
});
