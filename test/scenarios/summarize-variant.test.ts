import { describe, expect, it } from 'vitest';
import type { Op } from '../../core/history/op.js';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { historyFacts } from '../../src/scenarios/history-facts.js';
import { splitVerdicts } from '../../src/scenarios/scenario-run.js';
import { kindPhrase, summarizeProperty, summarizeVariant } from '../../src/scenarios/summarize-variant.js';
import { clientOp, nemesisOps, QUIET, resultsOf, scenarioRunOf } from './fixtures.js';

const s1 = findScenario('S1');
const [redisNone] = selectVariants(s1, ['redis-none']);
const [redisFence] = selectVariants(s1, ['redis-fence']);
const [redlockFence] = selectVariants(s1, ['redlock-fence']);

describe('splitVerdicts', () => {
  it('judges the lock by mutual exclusion and the data by the resource checkers', () => {
    const split = splitVerdicts(resultsOf({ fenced: 3, refusals: 1, clean: 6 }));
    expect(split.lock).toEqual({ valid: false, kinds: { 'double-hold': 3 } });
    expect(split.data).toEqual({ valid: true, kinds: {} });
    // One lost increment: the counter's shortfall and the pair that lost it (two lost-update anomalies), the late write stale and under an older token, the sections interleaved.
    expect(splitVerdicts(resultsOf({ lostUpdates: 1, resource: 'none' })).data).toEqual({
      valid: false,
      kinds: { 'lost-update': 2, 'stale-write': 1, 'token-regression': 1, 'interleaved-sections': 1 },
    });
    expect(splitVerdicts(resultsOf({ clean: 2, finalRead: false })).data.valid).toBe('unknown');
    expect(splitVerdicts(null)).toEqual({ lock: { valid: null, kinds: {} }, data: { valid: null, kinds: {} } });
  });
});

describe('historyFacts', () => {
  it('counts applied and skipped fault starts (a clock reset is no start), expired grants, refusals', () => {
    const history = [
      ...nemesisOps(2, 1),
      clientOp({ process: 'nemesis' as never, type: 'info', f: 'clock-offset', value: { target: 'redlock3', ms: 2000 } }),
      clientOp({ process: 'nemesis' as never, type: 'info', f: 'clock-offset', value: { target: 'redlock3', ms: 0 } }),
      clientOp({ type: 'ok', f: 'acquire', validity_ms: -1400 }),
      clientOp({ type: 'ok', f: 'acquire', validity_ms: 980 }),
      clientOp({ type: 'fail', f: 'acquire', error: 'held' }),
      clientOp({ type: 'fail', f: 'acquire', error: 'no-quorum' }),
      clientOp({ type: 'info', f: 'acquire', error: 'timeout: no answer in 2100 ms' }),
      clientOp({ type: 'fail', f: 'write', error: 'fenced' }),
      clientOp({ type: 'fail', f: 'mark', error: 'mark-changed' }),
      clientOp({ type: 'fail', f: 'release', error: 'not-held' }),
    ];
    expect(historyFacts(history, 5)).toEqual({
      faults: { planned: 5, applied: 3, skipped: ['client-pause: no client to pause (nobody held the lock or was acquiring)'] },
      expiredGrants: 1,
      acquireFailures: { 'no-quorum': 1, 'timeout (info)': 1 },
      refusedAccesses: { fenced: 1, 'mark-changed': 1 },
      lostGrants: 0,
      tokenRegressions: 0,
      replicationRefusals: 0,
    });
  });
});

describe('summarizeProperty', () => {
  it('words the verdict over the seeds', () => {
    const unsafe = summarizeProperty([
      { valid: false, kinds: { 'lost-update': 7, 'stale-write': 4 } },
      { valid: false, kinds: { 'lost-update': 5 } },
      { valid: true, kinds: {} },
    ]);
    expect(unsafe).toEqual({
      outcome: 'unsafe',
      unsafe: 2,
      safe: 1,
      unknown: 0,
      kinds: { 'lost-update': 12, 'stale-write': 4 },
      text: 'unsafe in 2/3 seeds: 12 lost updates, 4 stale writes',
    });
    expect(
      summarizeProperty([
        { valid: true, kinds: {} },
        { valid: true, kinds: {} },
        { valid: true, kinds: {} },
      ]).text,
    ).toBe('safe in 3/3 seeds');
    expect(
      summarizeProperty([
        { valid: true, kinds: {} },
        { valid: 'unknown', kinds: {} },
      ]).text,
    ).toBe('unknown in 1/2 seeds, safe in 1');
    expect(
      summarizeProperty([
        { valid: false, kinds: { 'double-hold': 1 } },
        { valid: null, kinds: {} },
      ]).text,
    ).toBe('unsafe in 1/2 seeds: 1 double hold (1 unknown)');
    expect(summarizeProperty([]).outcome).toBe('not-run');
  });

  it('names kinds in words, most frequent first, unknown kinds as they are', () => {
    expect(kindPhrase({ 'stale-write': 1, 'interleaved-sections': 3, 'mutual-exclusion (unlisted)': 2 })).toBe(
      '3 interleavings, mutual-exclusion (unlisted) 2, 1 stale write',
    );
  });
});

describe('summarizeVariant', () => {
  it('a fenced row: lock held twice, data safe, as the debate agrees; rejected writes noted', () => {
    const runs = [1, 2, 3].map((seed) => scenarioRunOf(seed, { fenced: 2, refusals: 1, clean: 16 }, nemesisOps(2), 2));
    const row = summarizeVariant(s1, redisFence!, [1, 2, 3], runs);
    expect(row.status).toBe('measured');
    expect(row.verdict).toBe('data safe in 3/3 seeds; lock unsafe in 3/3 seeds: 6 double holds');
    expect(row.match).toBe('as-expected');
    expect(row.matchReason).toBe('expected lock unsafe, measured unsafe; expected data safe, measured safe');
    expect(row.notes).toEqual([
      'faults applied: 6 of 6 windows',
      'accesses refused: fenced 9',
      '9 of 63 writes rejected by the resource',
      'no violation in 3 runs, 15 dangerous moments tested: a failure that shows in at least 63 % of runs would have been found with 95 % confidence',
    ]);
    expect(row.cell.missingSeeds).toEqual([]);
  });

  it('a seed whose data held but that never met the danger says its safe is untested', () => {
    const tested = [1, 2].map((seed) => scenarioRunOf(seed, { fenced: 2, refusals: 1, clean: 16 }, nemesisOps(2), 2));
    const quiet = scenarioRunOf(3, QUIET, nemesisOps(2), 2);
    expect(quiet.summary.outcome).toBe('untested');
    const row = summarizeVariant(s1, redisFence!, [1, 2, 3], [...tested, quiet]);
    expect(row.notes).toContain('1 seed of 3 never met the danger (no double hold, no refusal): its data safe is untested');
    expect(summarizeVariant(s1, redisFence!, [1, 2], tested).notes.some((n) => n.includes('untested'))).toBe(false);
  });

  it('notes the share of acknowledged increments lost, over the runs that counted them, and what the client reported', () => {
    const lossy = (seed: number, increments: { acked: number; lost: number } | null, findings: Record<string, number>) => ({
      ...scenarioRunOf(seed, { lostUpdates: 1, resource: 'none' }, nemesisOps(2), 2),
      increments,
      findings,
    });
    const row = summarizeVariant(
      s1,
      redisNone!,
      [1, 2, 3],
      [
        lossy(1, { acked: 12, lost: 4 }, { 'expired-lease grant': 2 }),
        lossy(2, { acked: 13, lost: 2 }, {}),
        lossy(3, null, { 'expired-lease grant': 1, 'other thing': 1 }),
      ],
    );
    expect(row.notes).toContain('6 of 25 acknowledged increments lost (24%, over the 2 of 3 runs whose final read counted)');
    expect(row.notes).toContain('the client reported: expired-lease grant ×3, other thing ×1');
    const none = summarizeVariant(s1, redisNone!, [1], [lossy(1, { acked: 12, lost: 0 }, {})]);
    expect(none.notes.some((n) => n.includes('lost (') || n.includes('reported'))).toBe(false);
  });

  it('a row that breaks the agreed outcome differs, and says how', () => {
    const row = summarizeVariant(s1, redisNone!, [1], [scenarioRunOf(1, QUIET, nemesisOps(2), 2)]);
    expect(row.match).toBe('differs');
    expect(row.matchReason).toBe('expected lock unsafe, measured safe; expected data unsafe, measured safe');
  });

  it('a row whose fault never struck is undecided, not a contradiction', () => {
    const row = summarizeVariant(s1, redisNone!, [1], [scenarioRunOf(1, QUIET, nemesisOps(0, 2), 2)]);
    expect(row.match).toBe('undecided');
    expect(row.matchReason).toBe('expected lock unsafe, measured safe; expected data unsafe, measured safe, but the fault struck in none of 1 run');
    expect(row.notes[0]).toBe('faults applied: 0 of 2 windows (skipped: client-pause: no client to pause (nobody held the lock or was acquiring))');
  });

  it('unknown verdicts leave it undecided; not-applicable and not-run rows say why', () => {
    const unknown = summarizeVariant(s1, redisNone!, [1], [scenarioRunOf(1, { fenced: 1, finalRead: false })]);
    expect(unknown.match).toBe('undecided');
    const na = summarizeVariant(s1, redlockFence!, [1], []);
    expect(na).toMatchObject({ status: 'not-applicable', match: 'no-expectation' });
    expect(na.verdict).toMatch(/^not applicable: redlock issues no monotonic fencing token/);
    expect(na.cell.outcome).toBe('not-applicable');
    const notRun = summarizeVariant(s1, redisNone!, [1], []);
    expect(notRun).toMatchObject({ status: 'not-run', verdict: 'not run', match: 'undecided', matchReason: 'not run' });
    const parked = { ...s1, notReproduced: 'the machine lacks it' };
    expect(summarizeVariant(parked, redisNone!, [1], [])).toMatchObject({ status: 'not-reproduced', match: 'undecided' });
  });

  it('a disputed row has no expectation; shared runs and tool errors are noted', () => {
    const s2b = findScenario('S2b');
    const shared = { ...scenarioRunOf(1, { lostUpdates: 1, resource: 'none' }), sharedFrom: 'S2b/redis-cas-unique' };
    const failed = scenarioRunOf(2);
    failed.summary = { ...failed.summary, status: 'error', error: 'lock client client1-1 was not ready within 30 s' };
    const row = summarizeVariant(s2b, s2b.variants[0]!, [1, 2], [failed, shared]);
    expect(row.match).toBe('no-expectation');
    expect(row.runs.map((r) => r.summary.seed)).toEqual([1, 2]);
    expect(row.notes).toContain('failed to run: seed 2: lock client client1-1 was not ready within 30 s');
    expect(row.notes).toContain('same runs as S2b/redis-cas-unique');
  });
});

describe('S7: a row must show a lost grant or a refusal', () => {
  const s7 = findScenario('S7');
  const [failoverNone] = selectVariants(s7, ['failover-none']);
  const [failoverWait] = selectVariants(s7, ['failover-wait']);
  // Ops take their times as they are made: each history makes its own, in order.
  const killOps = (): Op[] => [
    clientOp({ process: 'nemesis' as never, type: 'invoke', f: 'kill', value: 'rs1' }),
    clientOp({ process: 'nemesis' as never, type: 'info', f: 'kill', value: 'rs1' }),
  ];
  const kill = killOps();
  // After the episodes (theirs are tokens 1 and 2, from 1 s): p6 granted token 10, the master killed, p5 granted 10 again.
  const at = (ms: number) => ({ time: ms * 1e6 });
  const lost = [
    clientOp({ process: 6, type: 'invoke', f: 'acquire', ...at(60_000) }),
    clientOp({ process: 6, type: 'ok', f: 'acquire', token: 10, lease_ms: 10_000, ...at(60_001) }),
    { ...killOps()[0]!, ...at(60_002) },
    { ...killOps()[1]!, ...at(60_003) },
    clientOp({ process: 5, type: 'invoke', f: 'acquire', ...at(61_000) }),
    clientOp({ process: 5, type: 'ok', f: 'acquire', token: 10, lease_ms: 10_000, ...at(61_001) }),
  ];

  it('a seed that lost no grant and refused none is unknown, not safe: the row is undecided', () => {
    const quiet = [1, 2].map((seed) => scenarioRunOf(seed, QUIET, kill, 1));
    const row = summarizeVariant(s7, failoverNone!, [1, 2], quiet);
    expect(row.lock.text).toBe('unknown in 2/2 seeds');
    expect(row.match).toBe('undecided');
    expect(row.notes).toContain('2 seeds showed no lost grant, no double hold and no refusal: undecided, not safe');
  });

  it('a lost grant decides the seed, and the notes count lost grants and tokens that went backwards', () => {
    const row = summarizeVariant(s7, failoverNone!, [1], [scenarioRunOf(1, { lostUpdates: 1, resource: 'none' }, lost, 1)]);
    expect(row.match).toBe('as-expected');
    expect(row.notes).toContain(
      'acknowledged grants lost in the failover (another client granted the lock while the holder held it, within its TTL): 1 in 1/1 seeds',
    );
    expect(row.notes).toContain('fencing tokens that went backwards: 1 in 1/1 seeds');
  });

  it('a double hold without a failover between the grants (split brain) also decides the seed', () => {
    const [split] = selectVariants(s7, ['split-brain-none']);
    const row = summarizeVariant(s7, split!, [1], [scenarioRunOf(1, { fenced: 3 }, killOps(), 1)]);
    expect(row.lock.text).toBe('unsafe in 1/1 seeds: 3 double holds');
    expect(row.data.text).toBe('safe in 1/1 seeds');
    expect(row.notes.some((n) => n.includes('undecided'))).toBe(false);
  });

  it('grants refused by WAIT make a safe seed count as safe', () => {
    const refused = [...killOps(), clientOp({ process: 0, type: 'fail', f: 'acquire', error: 'not-replicated' })];
    const row = summarizeVariant(s7, failoverWait!, [1], [scenarioRunOf(1, QUIET, refused, 1)]);
    expect(row.lock.text).toBe('safe in 1/1 seeds');
    expect(row.data.text).toBe('safe in 1/1 seeds');
  });
});
