import { describe, expect, it } from 'vitest';
import { findScenario, SCENARIOS, selectVariants } from '../../src/scenarios/catalogue.js';
import { MARK_DELAY_SCRIPT, PAUSE_SCRIPT, SHORT_WRITE_DELAY_SCRIPT, WRITE_DELAY_SCRIPT } from '../../src/scenarios/client-scenarios.js';
import { CLOCK_JUMP_SCRIPT, DELAYED_RESTART_SCRIPT, QUICK_RESTART_SCRIPT, RING_SCRIPT, SLOW_ACQUIRE_SCRIPT } from '../../src/scenarios/redlock-scenarios.js';
import { JEPSEN_CLIENT_PAUSE_SCRIPT, JEPSEN_SERVER_PAUSE_SCRIPT } from '../../src/scenarios/etcd-mutex-scenarios.js';
import { WAITER_PAUSE_SCRIPT } from '../../src/scenarios/service-scenarios.js';
import { runKey, runName, SCENARIO_BASE, variantNotRunnable, variantRunOptions } from '../../src/scenarios/variant-options.js';
import { validateRunOptions } from '../../core/plan/run-options.js';
import { UsageError } from '../../core/errors.js';

const c1Split = { c1: ['redlock4', 'redlock5'], c2: ['redlock1', 'redlock2'], redlock1: ['c2'], redlock2: ['c2'], redlock4: ['c1'], redlock5: ['c1'] };
const split = { kind: 'partition', grudgeKind: 'client-from-servers', grudge: c1Split } as const;

describe('scenario scripts (exact)', () => {
  it('S1 pauses the holder 3 s at 1.5, 5 and 8.5 s', () => {
    expect(PAUSE_SCRIPT).toEqual([
      { at: 1500, until: 4500, fault: 'client-pause', target: { kind: 'holder' } },
      { at: 5000, until: 8000, fault: 'client-pause', target: { kind: 'holder' } },
      { at: 8500, until: 11_500, fault: 'client-pause', target: { kind: 'holder' } },
    ]);
  });

  it("S2, S2b and S6b slow one client's resource link, the request only", () => {
    expect(WRITE_DELAY_SCRIPT).toEqual(
      [2000, 5000, 8000].map((at) => ({ at, until: at + 600, fault: 'delay', target: { kind: 'holder' }, delayMs: 1500, link: 'resource' })),
    );
    expect(MARK_DELAY_SCRIPT).toEqual(
      [2000, 5000, 8000].map((at) => ({ at, until: at + 800, fault: 'delay', target: { kind: 'acquirer' }, delayMs: 1500, link: 'resource' })),
    );
    expect(SHORT_WRITE_DELAY_SCRIPT).toEqual(
      [2000, 5000, 8000].map((at) => ({ at, until: at + 600, fault: 'delay', target: { kind: 'holder' }, delayMs: 900, link: 'resource' })),
    );
    // The window closes before the delayed request arrives, so its answer is not delayed too.
    for (const w of [...WRITE_DELAY_SCRIPT, ...MARK_DELAY_SCRIPT, ...SHORT_WRITE_DELAY_SCRIPT])
      expect(w.until - w.at).toBeLessThan(w.fault === 'delay' ? w.delayMs : 0);
  });

  it('S3 splits the clients over two majorities sharing redlock3, and jumps its clock inside the split', () => {
    expect(CLOCK_JUMP_SCRIPT).toEqual([
      { at: 1000, until: 11_500, fault: 'partition', target: split },
      ...[2500, 5000, 7500].map((at) => ({ at, until: at + 500, fault: 'clock', target: { kind: 'node', node: 'redlock3' }, offsetMs: 3000 })),
    ]);
  });

  it('S4 kills redlock3 inside the split: back after 100 ms, or after 2.5 s (> the 2 s TTL)', () => {
    expect(QUICK_RESTART_SCRIPT).toEqual([
      { at: 1000, until: 11_500, fault: 'partition', target: split },
      ...[2500, 5500, 8500].map((at) => ({ at, until: at + 100, fault: 'kill', target: { kind: 'node', node: 'redlock3' } })),
    ]);
    expect(DELAYED_RESTART_SCRIPT.slice(1)).toEqual(
      [2500, 7000].map((at) => ({ at, until: at + 2500, fault: 'kill', target: { kind: 'node', node: 'redlock3' } })),
    );
  });

  it("S5 slows worker 0's lock link 1.2 s each way, more than the 1 s TTL, for longer than a round trip", () => {
    expect(SLOW_ACQUIRE_SCRIPT).toEqual(
      [2000, 7000].map((at) => ({ at, until: at + 4000, fault: 'delay', target: { kind: 'client', worker: 0 }, delayMs: 1200, link: 'lock' })),
    );
  });

  it("S8 pauses a client whose acquire is in flight for 3 s, more than etcd's 2 s minimum lease", () => {
    expect(WAITER_PAUSE_SCRIPT).toEqual([1500, 5000, 8500].map((at) => ({ at, until: at + 3000, fault: 'client-pause', target: { kind: 'acquirer' } })));
  });

  it('S11 faults every 5 s from 2 s, 3 s long (longer than the 2 s TTL): the holder, or etcd1, etcd2, etcd3 in turn', () => {
    const starts = [2000, 7000, 12_000, 17_000, 22_000];
    expect(JEPSEN_CLIENT_PAUSE_SCRIPT).toEqual(starts.map((at) => ({ at, until: at + 3000, fault: 'client-pause', target: { kind: 'holder' } })));
    expect(JEPSEN_SERVER_PAUSE_SCRIPT).toEqual(
      starts.map((at, i) => ({
        at,
        until: at + 3000,
        fault: 'server-pause',
        target: { kind: 'node', node: ['etcd1', 'etcd2', 'etcd3', 'etcd1', 'etcd2'][i] },
      })),
    );
  });

  it("S11 runs etcd's Mutex through the Go reference client, except its control, which is S8's own run", () => {
    const s11 = findScenario('S11');
    const s8 = findScenario('S8');
    for (const v of s11.variants.filter((x) => x.label !== 'builtin-control')) {
      expect(v.options.client, v.label).toMatch(/clients\/go\/etcd-mutex\/etcd-mutex$/);
      expect(v.requires?.program, v.label).toBe(v.options.client);
    }
    const control = variantRunOptions(s11, selectVariants(s11, ['builtin-control'])[0]!, 2, '/r/S11');
    expect(runKey(control)).toBe(runKey(variantRunOptions(s8, s8.variants[0]!, 2, '/r/S8')));
    expect(variantRunOptions(s11, selectVariants(s11, ['jepsen-server-pause'])[0]!, 1, '.')).toMatchObject({
      clients: 5,
      ttlMs: 2000,
      timeLimitS: 30,
      callTimeoutMs: 8000,
      resource: 'none',
    });
  });

  it('S10 gives three clients three intersecting majorities', () => {
    expect(RING_SCRIPT).toEqual([
      {
        at: 1000,
        until: 11_500,
        fault: 'partition',
        target: {
          kind: 'partition',
          grudgeKind: 'majorities-ring',
          grudge: {
            c1: ['redlock4', 'redlock5'],
            c2: ['redlock1', 'redlock2'],
            c3: ['redlock3', 'redlock4'],
            redlock1: ['c2'],
            redlock2: ['c2'],
            redlock3: ['c3'],
            redlock4: ['c1', 'c3'],
            redlock5: ['c1'],
          },
        },
      },
    ]);
  });
});

describe('variantRunOptions', () => {
  it("merges the base, the variant, the seed and the folder name; nemesis lists the script's faults", () => {
    const s3 = findScenario('S3');
    const o = variantRunOptions(s3, s3.variants[0]!, 7, '/r/S3');
    expect(o).toMatchObject({
      ...SCENARIO_BASE,
      ttlMs: 2000,
      holdMs: 1500,
      callTimeoutMs: 300,
      backend: 'redlock',
      resource: 'none',
      seed: 7,
      resultsDir: '/r/S3',
      name: 'S3-redlock-none-s7',
      nemesis: ['partition', 'clock'],
    });
    expect(o.script).toEqual(CLOCK_JUMP_SCRIPT);
    expect(o.script).not.toBe(CLOCK_JUMP_SCRIPT);
    expect(runName(s3, s3.variants[1]!, 2)).toBe('S3-redlock-npm-none-s2');
  });

  it('variant options override the base (S4: TTL 2 s, hold 1.2 s, fsync always)', () => {
    const s4 = findScenario('s4');
    expect(variantRunOptions(s4, selectVariants(s4, ['aof-always'])[0]!, 1, '.')).toMatchObject({
      ttlMs: 2000,
      holdMs: 1200,
      redisPersistence: 'aof-always',
      clients: 2,
    });
  });

  it("every runnable variant passes run's own option checks, its faults start within the run, and it is short", () => {
    for (const s of SCENARIOS) {
      for (const v of s.variants) {
        // Built or not here, a reference client a variant needs is checked as if it were.
        if (variantNotRunnable(s, v, () => true) !== undefined) continue;
        const o = variantRunOptions(s, v, 1, '.');
        expect(() => validateRunOptions(o), `${s.id}/${v.label}`).not.toThrow();
        for (const w of o.script!) expect(w.until, `${s.id}/${v.label}`).toBeLessThanOrEqual(o.timeLimitS * 1000);
        // S7's failover rows hold the lock 7 s so that a hold outlasts the failover (about 2.5 s): 24 s.
        // S11's Jepsen-shaped rows fault every 5 s, five times, as Jepsen did: 30 s.
        // S12's jobs rows pause the holder once in 30 s: one pause per minute per client, the rate it states.
        expect(o.timeLimitS).toBeLessThanOrEqual(s.id === 'S7' ? 24 : s.id === 'S11' || s.id === 'S12' ? 30 : 15);
      }
    }
  });

  it('says why a variant cannot run', () => {
    const s1 = findScenario('S1');
    expect(variantNotRunnable(s1, selectVariants(s1, ['redlock-fence'])[0]!)).toMatch(/^not applicable: redlock issues no monotonic fencing token/);
    const parked = { ...findScenario('S8'), notReproduced: 'the machine lacks it' };
    expect(variantNotRunnable(parked, parked.variants[0]!)).toBe('not reproduced: the machine lacks it');
    const s7 = findScenario('S7');
    for (const v of s7.variants) expect(variantNotRunnable(s7, v), v.label).toBeUndefined();
    const s11 = findScenario('S11');
    const [mutex] = selectVariants(s11, ['waiter-pause']);
    expect(variantNotRunnable(s11, mutex!, () => false)).toBe(
      "not built: clients/go/etcd-mutex/etcd-mutex is missing (build it with `npm run setup -- --go` (Debian's golang-go and golang-etcd-server-dev))",
    );
    expect(variantNotRunnable(s11, mutex!, () => true)).toBeUndefined();
  });

  it('the same options make the same run key whatever the name and folder', () => {
    const s1 = findScenario('S1');
    const s6 = findScenario('S6');
    const a = variantRunOptions(s1, selectVariants(s1, ['redis-fence'])[0]!, 1, '/r/S1');
    const b = variantRunOptions(s6, selectVariants(s6, ['pause-fence'])[0]!, 1, '/r/S6');
    expect(runKey(a)).toBe(runKey(b));
    expect(runKey(a)).not.toBe(runKey({ ...a, seed: 2 }));
  });
});

describe('the catalogue', () => {
  it('has unique ids and labels, and a recipe naming its own command', () => {
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
    expect(SCENARIOS.map((s) => s.id)).toEqual([
      'S1',
      'S2',
      'S2b',
      'S3',
      'S4',
      'S5',
      'S6',
      'S6b',
      'S7',
      'S8',
      'S9',
      'S10',
      'S11',
      'S12',
      'S13',
      'S14',
      'S15',
      'S16',
    ]);
    for (const s of SCENARIOS) {
      expect(new Set(s.variants.map((v) => v.label)).size, s.id).toBe(s.variants.length);
      for (const v of s.variants) expect(v.label).toMatch(/^[a-z0-9-]+$/);
      if (s.notReproduced === undefined) expect(s.recipe).toContain(`fencecheck scenario run ${s.id}\``);
    }
  });

  it('finds scenarios and variants, or says what it expected', () => {
    expect(findScenario('s2B').id).toBe('S2b');
    expect(() => findScenario('S99')).toThrow(UsageError);
    expect(() => findScenario('S99')).toThrow(
      'Expected a scenario among S1, S2, S2b, S3, S4, S5, S6, S6b, S7, S8, S9, S10, S11, S12, S13, S14, S15, S16, got `S99`',
    );
    expect(() => selectVariants(findScenario('S5'), ['nope'])).toThrow('Expected `--variant` to be one of redlock, redlock-npm for S5, got `nope`');
    expect(selectVariants(findScenario('S5'), [])).toHaveLength(2);
  });
});
