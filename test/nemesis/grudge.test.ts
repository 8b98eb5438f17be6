import { describe, expect, it } from 'vitest';
import {
  blockedPairs,
  bridge,
  bridgeOf,
  clientFromResource,
  clientFromServers,
  completeGrudge,
  cutOff,
  grudgeHosts,
  halvesOf,
  isolateOne,
  majoritiesRing,
  majoritiesRingOf,
  mergeGrudges,
  randomHalves,
} from '../../src/nemesis/grudge.js';
import { seededRng, shuffle } from '../../src/nemesis/rng.js';

const five = ['n1', 'n2', 'n3', 'n4', 'n5'];

describe('grudges', () => {
  it('completeGrudge: nobody talks outside its component', () => {
    expect(completeGrudge([['a', 'b'], ['c']])).toEqual({ a: ['c'], b: ['c'], c: ['a', 'b'] });
    expect(completeGrudge([five])).toEqual({});
  });

  it('isolateOne cuts one node off, both ways', () => {
    expect(isolateOne(five, 'n3')).toEqual({ n1: ['n3'], n2: ['n3'], n3: ['n1', 'n2', 'n4', 'n5'], n4: ['n3'], n5: ['n3'] });
    expect(blockedPairs(isolateOne(five, 'n3'))).toEqual(['n1|n3', 'n2|n3', 'n3|n4', 'n3|n5']);
    expect(() => isolateOne(five, 'n9')).toThrow(/not one of/);
  });

  it('halvesOf puts the smaller half first', () => {
    expect(halvesOf(five)).toEqual([['n1', 'n2'], ['n3', 'n4', 'n5']]);
    expect(halvesOf(['a', 'b', 'c', 'd'])).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('randomHalves follows the seed', () => {
    const order = shuffle(five, seededRng(7));
    const [small, large] = halvesOf(order);
    expect(randomHalves(five, seededRng(7))).toEqual(completeGrudge([small, large]));
    expect(randomHalves(five, seededRng(7))).toEqual(randomHalves(five, seededRng(7)));
    expect(small).toHaveLength(2);
  });

  it('majoritiesRing of 5: everyone sees its two ring neighbours', () => {
    expect(majoritiesRingOf(five)).toEqual({
      n1: ['n3', 'n4'],
      n2: ['n4', 'n5'],
      n3: ['n1', 'n5'],
      n4: ['n1', 'n2'],
      n5: ['n2', 'n3'],
    });
  });

  it('majoritiesRing: every node sees a majority and no two see the same one', () => {
    const hosts = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const g = majoritiesRing(hosts, seededRng(42));
    const seen = hosts.map((h) => hosts.filter((o) => !(g[h] ?? []).includes(o)).join(','));
    for (const s of seen) expect(s.split(',').length).toBe(4);
    expect(new Set(seen).size).toBe(hosts.length);
  });

  it('majoritiesRing of 3 is lopsided: a drops b, b drops c, c drops a', () => {
    expect(majoritiesRingOf(['a', 'b', 'c'])).toEqual({ a: ['b'], b: ['c'], c: ['a'] });
  });

  it('bridge keeps one node talking to both halves', () => {
    expect(bridgeOf(five)).toEqual({ n1: ['n4', 'n5'], n2: ['n4', 'n5'], n4: ['n1', 'n2'], n5: ['n1', 'n2'] });
    expect(grudgeHosts(bridge(five, seededRng(3)))).toHaveLength(4);
  });

  it('client grudges cut only the client links', () => {
    expect(clientFromServers('c1', ['etcd1', 'etcd2'])).toEqual({ c1: ['etcd1', 'etcd2'], etcd1: ['c1'], etcd2: ['c1'] });
    expect(clientFromResource('c1', 'pg1')).toEqual({ c1: ['pg1'], pg1: ['c1'] });
    expect(cutOff(['a'], ['a', 'b'])).toEqual({ a: ['b'], b: ['a'] });
  });

  it('mergeGrudges is the union', () => {
    expect(mergeGrudges(clientFromResource('c1', 'pg1'), isolateOne(['x', 'y'], 'x'))).toEqual({ c1: ['pg1'], pg1: ['c1'], x: ['y'], y: ['x'] });
  });
});
