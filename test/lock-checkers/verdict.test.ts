/**
 * The verdict plumbing: merging (false > unknown > true, nothing checked is
 * unknown), the anomaly cap, and runCheckers turning a crash into 'unknown'.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ANOMALIES, mergeVerdicts, ms, runCheckers, verdict, type Anomaly, type LockChecker } from '../../core/checkers/lock/verdict.js';
import { call, context, lockHistory } from './lock-history.js';

const anomaly = (i: number): Anomaly => ({
  kind: 'double-hold',
  message: `overlap ${i}`,
  processes: [i],
  tokens: [],
  window: { start: i, end: i + 1 },
  opIndexes: [i],
});

describe('mergeVerdicts', () => {
  it.each([
    [[], 'unknown'],
    [[true], true],
    [[true, true], true],
    [[true, 'unknown'], 'unknown'],
    [['unknown', false, true], false],
    [[false, false], false],
  ] as const)('%j merges to %j', (valids, expected) => {
    expect(mergeVerdicts(valids.map((valid) => ({ valid })))).toBe(expected);
  });
});

describe('verdict', () => {
  it('keeps the first anomalies and counts them all', () => {
    const v = verdict(
      'x',
      false,
      'many',
      Array.from({ length: 250 }, (_, i) => anomaly(i)),
    );
    expect(v.anomalies).toHaveLength(MAX_ANOMALIES);
    expect(v.anomalyCount).toBe(250);
    expect(v.anomalies[0]!.message).toBe('overlap 0');
  });

  it('prints ns as ms since the start', () => {
    expect(ms(1_203_311_000)).toBe('1203.3 ms');
    expect(ms(Infinity)).toBe('the end');
  });
});

describe('runCheckers', () => {
  const history = lockHistory(call(0, 'acquire', 0, 1, 'ok', { token: 1 }));
  const fine: LockChecker = { name: 'fine', check: () => verdict('fine', true, 'ok', []) };
  const crashing: LockChecker = {
    name: 'crashing',
    check: () => {
      throw new Error('index out of range');
    },
  };

  it('a checker that throws yields unknown with its error, and the others still run', () => {
    const r = runCheckers([crashing, fine], history, context());
    expect(r.valid).toBe('unknown');
    expect(r.verdicts.map((v) => [v.checker, v.valid])).toEqual([
      ['crashing', 'unknown'],
      ['fine', true],
    ]);
    expect(r.verdicts[0]).toMatchObject({ error: 'index out of range', summary: 'the checker crashed: index out of range', anomalyCount: 0 });
  });

  it('a thrown non-Error is reported too', () => {
    const r = runCheckers(
      [
        {
          name: 'odd',
          check: () => {
            throw 'boom';
          },
        },
      ],
      history,
      context(),
    );
    expect(r.verdicts[0]).toMatchObject({ valid: 'unknown', error: 'boom' });
  });

  it('false wins over a crash', () => {
    const bad: LockChecker = { name: 'bad', check: () => verdict('bad', false, 'no', [anomaly(1)]) };
    expect(runCheckers([crashing, bad, fine], history, context()).valid).toBe(false);
  });
});
