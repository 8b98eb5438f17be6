import { describe, expect, it } from 'vitest';
import * as nemesis from '../../runtime/nemesis/index.js';
import { Prng } from '../../core/random/prng.js';

// The project's one seeded PRNG, as the `() => number` the grudge functions take.
const rngOf = (seed: number): (() => number) => new Prng(seed).asRng();

const five = ['n1', 'n2', 'n3', 'n4', 'n5'];

describe('grudges', () => {
  it('completeGrudge: nobody talks outside its component', () => {
    expect(nemesis.completeGrudge([['a', 'b'], ['c']])).toEqual({ a: ['c'], b: ['c'], c: ['a', 'b'] });
    expect(nemesis.completeGrudge([five])).toEqual({});
  });

  it('isolateOne cuts one node off, both ways', () => {
    expect(nemesis.isolateOne(five, 'n3')).toEqual({ n1: ['n3'], n2: ['n3'], n3: ['n1', 'n2', 'n4', 'n5'], n4: ['n3'], n5: ['n3'] });
    expect(nemesis.blockedPairs(nemesis.isolateOne(five, 'n3'))).toEqual(['n1|n3', 'n2|n3', 'n3|n4', 'n3|n5']);
    expect(() => nemesis.isolateOne(five, 'n9')).toThrow(/not one of/);
  });

  it('halvesOf puts the smaller half first', () => {
    expect(nemesis.halvesOf(five)).toEqual([
      ['n1', 'n2'],
      ['n3', 'n4', 'n5'],
    ]);
    expect(nemesis.halvesOf(['a', 'b', 'c', 'd'])).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('randomHalves follows the seed', () => {
    const order = nemesis.shuffle(five, rngOf(7));
    const [small, large] = nemesis.halvesOf(order);
    expect(nemesis.randomHalves(five, rngOf(7))).toEqual(nemesis.completeGrudge([small, large]));
    expect(nemesis.randomHalves(five, rngOf(7))).toEqual(nemesis.randomHalves(five, rngOf(7)));
    expect(small).toHaveLength(2);
  });

  it('majoritiesRing of 5: everyone sees its two ring neighbours', () => {
    expect(nemesis.majoritiesRingOf(five)).toEqual({
      n1: ['n3', 'n4'],
      n2: ['n4', 'n5'],
      n3: ['n1', 'n5'],
      n4: ['n1', 'n2'],
      n5: ['n2', 'n3'],
    });
  });

  it('majoritiesRing: every node sees a majority and no two see the same one', () => {
    const hosts = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const g = nemesis.majoritiesRing(hosts, rngOf(42));
    const seen = hosts.map((h) => hosts.filter((o) => !(g[h] ?? []).includes(o)).join(','));
    for (const s of seen) expect(s.split(',').length).toBe(4);
    expect(new Set(seen).size).toBe(hosts.length);
  });

  it('majoritiesRing of 3 is lopsided: a drops b, b drops c, c drops a', () => {
    expect(nemesis.majoritiesRingOf(['a', 'b', 'c'])).toEqual({ a: ['b'], b: ['c'], c: ['a'] });
  });

  it('bridge keeps one node talking to both halves', () => {
    expect(nemesis.bridgeOf(five)).toEqual({ n1: ['n4', 'n5'], n2: ['n4', 'n5'], n4: ['n1', 'n2'], n5: ['n1', 'n2'] });
    expect(nemesis.grudgeHosts(nemesis.bridge(five, rngOf(3)))).toHaveLength(4);
  });

  it('client grudges cut only the client links', () => {
    expect(nemesis.clientFromServers('c1', ['etcd1', 'etcd2'])).toEqual({ c1: ['etcd1', 'etcd2'], etcd1: ['c1'], etcd2: ['c1'] });
    expect(nemesis.clientFromResource('c1', 'pg1')).toEqual({ c1: ['pg1'], pg1: ['c1'] });
    expect(nemesis.cutOff(['a'], ['a', 'b'])).toEqual({ a: ['b'], b: ['a'] });
  });

  it('mergeGrudges is the union', () => {
    expect(nemesis.mergeGrudges(nemesis.clientFromResource('c1', 'pg1'), nemesis.isolateOne(['x', 'y'], 'x'))).toEqual({
      c1: ['pg1'],
      pg1: ['c1'],
      x: ['y'],
      y: ['x'],
    });
  });
});
