/**
 * A try's run options from its plan: the patience of its calls (a patient
 * try's call timeout outlasts its longest fault) and the lease of its holds.
 */
import { describe, expect, it } from 'vitest';
import { tryOptions, TRY_SHAPE, type HuntTarget } from '../../src/hunt/hunt-target.js';
import { DEFAULTS } from '../../core/plan/run-options.js';
import type { TryPlan } from '../../src/hunt/search.js';

const target: HuntTarget = { backend: 'etcd', resource: 'fence-claim', workload: 'lock-counter' };
const plan = (patience: TryPlan['patience'], hold: TryPlan['hold']): TryPlan => ({
  index: 0,
  swarm: ['client-pause'],
  hold,
  patience,
  windows: [{ at: 1000, until: 5000, fault: 'client-pause', target: { kind: 'acquirer' }, trigger: { on: 'acquire', withinMs: 8000 } }],
  origin: { kind: 'swarm' },
});

describe('tryOptions', () => {
  it('keeps the default call timeout for an impatient try', () => {
    expect(tryOptions(target, TRY_SHAPE, plan('short', 'short'), 1, '/tmp/x').callTimeoutMs).toBe(DEFAULTS.callTimeoutMs);
  });

  it('gives a patient try a call timeout of its longest window plus two of its leases', () => {
    const short = tryOptions(target, TRY_SHAPE, plan('long', 'short'), 1, '/tmp/x');
    expect(short.callTimeoutMs).toBe(4000 + 2 * short.ttlMs);
    const long = tryOptions(target, TRY_SHAPE, plan('long', 'long'), 1, '/tmp/x');
    expect(long.callTimeoutMs).toBe(4000 + 2 * long.ttlMs);
    expect(long.ttlMs).toBeGreaterThan(short.ttlMs);
  });
});
