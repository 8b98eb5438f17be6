import { describe, expect, it } from 'vitest';
import { findScenario, SCENARIOS } from '../../src/scenarios/catalogue.js';
import { planScenarioRuns, replayCommand, rowId } from '../../src/scenarios/plan-scenario-runs.js';

const all = SCENARIOS.map((scenario) => ({ scenario, variants: scenario.variants }));

describe('planScenarioRuns', () => {
  it('runs each distinct variant once per seed, seed-major, and shares identical runs between rows', () => {
    // As on a machine where the Go reference client S11 needs is built (CI builds it).
    const plan = planScenarioRuns(all, [1, 2], '/d/runs', () => true);
    const first = plan.filter((p) => p.seed === 1);
    expect(plan).toHaveLength(2 * first.length);
    expect(plan.slice(0, first.length).every((p) => p.seed === 1)).toBe(true);
    expect(plan.map((p) => p.index)).toEqual(plan.map((_, i) => i));
    expect(first.map((p) => rowId(p.owner))).toEqual([
      'S1/redis-none',
      'S1/redis-fence',
      'S1/redlock-none',
      'S1/etcd-none',
      'S1/etcd-fence',
      'S1/zookeeper-none',
      'S1/zookeeper-fence',
      'S2/redis-none',
      'S2/redis-fence',
      'S2b/redis-cas-unique',
      'S2b/redis-fence-claim',
      'S3/redlock-none',
      'S3/redlock-npm-none',
      'S4/immediate',
      'S4/delayed',
      'S4/aof-always',
      'S5/redlock',
      'S5/redlock-npm',
      'S6/pause-cas-unique',
      'S6/delay-cas-unique',
      'S6b/redis-fence',
      'S6b/redis-fence-claim',
      'S7/failover-none',
      'S7/failover-fence',
      'S7/failover-wait',
      'S7/failover-min-replicas',
      'S7/min-replicas-in-lag',
      'S7/split-brain-none',
      'S7/split-brain-min-replicas',
      'S8/etcd-none',
      'S9/short-pause',
      'S9/long-pause-careful',
      'S10/redlock',
      'S10/redlock-npm',
      'S11/waiter-pause',
      'S11/waiter-pause-fence-claim',
      'S11/jepsen-client-pause',
      'S11/jepsen-server-pause',
      'S12/redis-none',
      'S12/redis-fence-claim',
      'S12/redis-version',
      'S12/redlock-none',
      'S12/etcd-none',
      'S12/zookeeper-none',
      'S12/redlock-cas-unique',
      'S12/etcd-fence-claim',
      'S12/zookeeper-fence-claim',
      'S13/none-none',
      'S13/none-version',
      'S13/none-for-update',
      'S14/pause-version',
      'S14/late-write-version',
      'S14/redlock-pause-version',
      'S15/direct-none',
      'S15/pooled-none',
      'S15/pooled-fence-claim',
      'S15/direct-session-end-none',
      'S15/direct-session-end-fence-claim',
      'S16/redis-none',
      'S16/redis-fence-claim',
      'S16/redis-fence-claim-allkeys',
    ]);
    const shared = Object.fromEntries(first.filter((p) => p.rows.length > 1).map((p) => [rowId(p.owner), p.rows.slice(1).map(rowId)]));
    expect(shared).toEqual({
      'S1/redis-fence': ['S6/pause-fence', 'S14/pause-fence'],
      'S1/zookeeper-none': ['S9/long-pause-none'],
      'S1/zookeeper-fence': ['S9/long-pause-fence'],
      'S2/redis-fence': ['S6/delay-fence'],
      'S2b/redis-cas-unique': ['S6/late-mark-cas-unique'],
      'S2b/redis-fence-claim': ['S6/late-mark-fence-claim'],
      'S6b/redis-fence': ['S14/late-write-fence'],
      'S6b/redis-fence-claim': ['S14/late-write-fence-claim'],
      'S8/etcd-none': ['S11/builtin-control'],
    });
    const unbuilt = planScenarioRuns(all, [1], '/d/runs', () => false);
    expect(unbuilt.filter((p) => p.rows.some((r) => r.scenarioId === 'S11')).map((p) => rowId(p.owner))).toEqual(['S8/etcd-none']);
  });

  it("puts each run under its owner's folder with its replay command; skips rows that cannot run", () => {
    const s1 = findScenario('S1');
    const parked = { ...findScenario('S8'), notReproduced: 'the machine lacks it' };
    const plan = planScenarioRuns(
      [
        { scenario: s1, variants: s1.variants },
        { scenario: parked, variants: parked.variants },
      ],
      [5],
      '/d/runs',
    );
    expect(plan.map((p) => p.owner.label)).not.toContain('redlock-fence');
    expect(plan.some((p) => p.owner.scenarioId === 'S8')).toBe(false);
    expect(plan[1]).toMatchObject({
      seed: 5,
      options: { resultsDir: '/d/runs/S1', name: 'S1-redis-fence-s5', seed: 5 },
      replay: 'sudo npx fencecheck scenario run S1 --variant redis-fence --first-seed 5',
    });
  });

  it('a shared row run alone owns its run', () => {
    const s6 = findScenario('S6');
    const plan = planScenarioRuns([{ scenario: s6, variants: s6.variants }], [1], '/d/runs');
    expect(plan.map((p) => p.owner.label)).toEqual(s6.variants.map((v) => v.label));
    expect(replayCommand('S6', 'pause-fence', 3)).toBe('sudo npx fencecheck scenario run S6 --variant pause-fence --first-seed 3');
  });
});
