/**
 * The lookahead (Model.deadEnds) of the register models (register,
 * cas-register, etcd). Once the register holds `v`, every later value is `v`
 * or the value a write (or a cas's `to`) not yet linearized sets. So a
 * completed read not yet linearized that returned some `u` ≠ `v` with no such
 * producer of `u` left can never be linearized (nor an ok cas whose `from` is
 * `u`): the configuration is a dead end. Why: a history with many timed-out
 * writes otherwise tries every subset of them before a later read rules the
 * subset out (etcd_002 of the corpus: 77 ops, 389,000 steps).
 *
 * Values are compared as the models compare them (valueEquals): primitives by
 * identity, arrays and objects by their JSON.
 */
import type { Value } from '../../src/history/op.js';
import type { DeadEndTest } from '../model.js';
import type { Operation } from '../operation.js';

/** How many not-yet-linearized readers a test looks at (the earliest invoked: the nearest constraints). */
const LOOKAHEAD_READERS = 8;

/** `nilReadIsWildcard`: a read of nil matches any value (register, cas-register), so it constrains nothing. */
export function registerDeadEnds(ops: readonly Operation[], nilReadIsWildcard: boolean): DeadEndTest<Value> | undefined {
  const ids = new ValueIds();
  const readers: number[] = [];
  const readerValue: number[] = [];
  const producers = new Map<number, number[]>();
  ops.forEach((op, i) => {
    const cas = op.f === 'cas' && Array.isArray(op.input) && op.input.length === 2 ? op.input : undefined;
    if (op.ret !== Infinity && op.status === 'ok' && op.f === 'read' && !(nilReadIsWildcard && op.output === null)) {
      readers.push(i);
      readerValue.push(ids.idOf(op.output, true));
    } else if (op.ret !== Infinity && op.status === 'ok' && cas) {
      readers.push(i);
      readerValue.push(ids.idOf(cas[0]!, true));
    }
    // Anything that may set a value: a write, or a cas that succeeded or may have (a failed one is an observation or dropped).
    const set = op.f === 'write' ? op.input : cas && op.status !== 'fail' ? cas[1]! : undefined;
    if (set !== undefined) {
      const id = ids.idOf(set, true);
      producers.set(id, [...(producers.get(id) ?? []), i]);
    }
  });
  if (readers.length === 0) return undefined;
  const readerOps = Int32Array.from(readers);
  const readerValues = Int32Array.from(readerValue);
  const producersOf = new Array<Int32Array>(ids.size);
  for (let id = 0; id < ids.size; id++) producersOf[id] = Int32Array.from(producers.get(id) ?? []);
  const isSet = (words: Uint32Array, i: number) => (words[i >> 5]! & (1 << (i & 31))) !== 0;
  return (state, _op, linearized, lo) => {
    const held = ids.idOf(state, false);
    let checked = 0;
    for (let r = lowerBound(readerOps, lo << 5); r < readerOps.length && checked < LOOKAHEAD_READERS; r++) {
      const reader = readerOps[r]!;
      if (isSet(linearized, reader)) continue;
      checked++;
      const wanted = readerValues[r]!;
      if (wanted === held) continue;
      const setters = producersOf[wanted]!;
      let reachable = false;
      for (let p = 0; p < setters.length && !reachable; p++) reachable = !isSet(linearized, setters[p]!);
      if (!reachable) return reader;
    }
    return -1;
  };
}

/** Small ints for values, equal iff valueEquals; -1 for a value never seen when asked not to add. */
class ValueIds {
  private readonly primitives = new Map<Value, number>();
  private readonly composites = new Map<string, number>();
  size = 0;

  idOf(v: Value, add: boolean): number {
    const composite = v !== null && typeof v === 'object';
    const key = composite ? JSON.stringify(v) : v;
    const map = (composite ? this.composites : this.primitives) as Map<unknown, number>;
    let id = map.get(key);
    if (id === undefined) {
      if (!add) return -1;
      map.set(key, (id = this.size++));
    }
    return id;
  }
}

/** The first position in ascending `xs` whose value is >= x. */
export function lowerBound(xs: Int32Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
