import { describe, expect, it } from 'vitest';
import type { Op } from '../../core/history/op.js';
import { replicationRefusals } from '../../core/checkers/lock/evidence.js';
import { lostGrants, tokenRegressions } from '../../src/scenarios/lost-grants.js';

let index = 0;
/** An op at `s` seconds. */
function at(s: number, fields: Partial<Op> & Pick<Op, 'process' | 'type' | 'f'>): Op {
  return { index: index++, time: Math.round(s * 1e9), value: null, ...fields };
}
const grant = (p: number, from: number, to: number, token: number, lease = 10_000): Op[] => [
  at(from, { process: p, type: 'invoke', f: 'acquire' }),
  at(to, { process: p, type: 'ok', f: 'acquire', token, lease_ms: lease }),
];
const release = (p: number, s: number, type: Op['type'] = 'ok'): Op[] => [
  at(s, { process: p, type: 'invoke', f: 'release' }),
  at(s + 0.01, { process: p, type, f: 'release', ...(type === 'fail' ? { error: 'not-held' } : {}) }),
];
const kill = (s: number, error?: string): Op[] => [
  at(s, { process: 'nemesis', type: 'invoke', f: 'kill', value: 'rs1' }),
  at(s + 0.05, { process: 'nemesis', type: 'info', f: 'kill', value: 'rs1', ...(error ? { error } : {}) }),
];

describe('lostGrants', () => {
  it('finds a grant another client got while the holder held it within its lease, after a kill (S7 as measured)', () => {
    const history = [
      ...grant(0, 0.1, 0.2, 1),
      ...release(0, 7.2),
      ...grant(1, 7.0, 7.3, 2),
      ...kill(9.5),
      ...grant(0, 12.0, 12.4, 2),
      ...release(1, 14.5, 'fail'),
    ];
    const lost = lostGrants(history);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ firstToken: 2, secondToken: 2 });
    expect(tokenRegressions(history)).toBe(1);
  });

  it('counts nothing when the holder had let go, the lease had run out, or no server fault came between', () => {
    const released = [...grant(1, 7.0, 7.3, 2), ...release(1, 9.0), ...kill(9.5), ...grant(0, 12.0, 12.4, 3)];
    const expired = [...grant(1, 7.0, 7.3, 2, 3000), ...kill(9.5), ...grant(0, 12.0, 12.4, 3)];
    const noFault = [...grant(1, 7.0, 7.3, 2), ...grant(0, 12.0, 12.4, 3)];
    const missedFault = [...grant(1, 7.0, 7.3, 2), ...kill(9.5, 'the Sentinels agree on no master'), ...grant(0, 12.0, 12.4, 3)];
    for (const h of [released, expired, noFault, missedFault]) expect(lostGrants(h)).toEqual([]);
    expect(tokenRegressions(released)).toBe(0);
  });

  it('needs the second grant to start after the first completed (overlapping acquires prove nothing)', () => {
    expect(lostGrants([...grant(1, 7.0, 7.3, 2), ...kill(7.2), ...grant(0, 7.1, 7.4, 3)])).toEqual([]);
  });
});

describe('replicationRefusals', () => {
  it('counts WAIT and NOREPLICAS refusals of acquires only', () => {
    const history = [
      at(1, { process: 0, type: 'fail', f: 'acquire', error: 'not-replicated' }),
      at(2, { process: 0, type: 'fail', f: 'acquire', error: 'redis-error NOREPLICAS' }),
      at(3, { process: 0, type: 'fail', f: 'acquire', error: 'held' }),
      at(4, { process: 0, type: 'fail', f: 'write', error: 'fenced' }),
    ];
    expect(replicationRefusals(history)).toBe(2);
  });
});
