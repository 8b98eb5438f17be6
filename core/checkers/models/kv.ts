/**
 * A key-value store of strings (Porcupine's kv model): `get`, `put` and
 * `append` on independent keys, every key starting as "". Values are Jepsen's
 * independent-key tuples: input `[key, value]`, and a get's output
 * `[key, value]`.
 *
 * Each key is its own register, so the model partitions by key
 * (P-compositionality). `kvModel({ partition: false })` keeps one state for
 * all keys: the same verdicts, a far larger search (a stress test).
 *
 * Why states carry their hash: appended strings grow long, and hashing a
 * string is linear in its length. FNV-1a is a streaming hash, so the hash of
 * `s + v` follows from the hash of `s` and `v` alone; a state's hash costs
 * O(|v|) per append instead of O(|s|), and the interner never rehashes.
 */
import type { Value } from '../../history/op.js';
import { illegal, type DeadEndTest, type Model, type StateParts } from '../model.js';
import type { Operation } from '../operation.js';
import { FNV_OFFSET, fnvContinue } from '../string-hash.js';
import { kvOrderHint } from './kv-order-hint.js';
import { kvValueOf, kvWrittenValue } from './kv-values.js';
import { showValue } from './value-equality.js';

/** One key's value with its FNV-1a hash. */
export interface KvCell {
  readonly value: string;
  readonly hash: number;
}

/** All keys' values (absent keys hold ""), with an order-independent hash of the whole. */
export interface KvStore {
  readonly cells: ReadonlyMap<string, KvCell>;
  readonly hash: number;
}

const EMPTY: KvCell = { value: '', hash: FNV_OFFSET };

/** The partitioned model: one part per key, so a state is one key's cell. */
export function kvModel(opts?: { partition?: true }): Model<KvCell>;
/** The unpartitioned model: one state for all keys. */
export function kvModel(opts: { partition: false }): Model<KvStore>;
export function kvModel(opts: { partition?: boolean } = {}): Model<KvCell> | Model<KvStore> {
  return opts.partition === false ? kvStoreModel() : kvCellModel();
}

function kvCellModel(): Model<KvCell> {
  return {
    ...shared,
    init: () => EMPTY,
    step(cell, op) {
      const next = stepCell(cell, op);
      return typeof next === 'function' ? illegal(next) : { ok: true, state: next };
    },
    hash: (c) => c.hash,
    equal: (a, b) => a.hash === b.hash && a.value === b.value,
    // A cell object and the rope node of its appended string (the rest is shared with the cell it came from).
    sizeOf: () => 96,
    partition: partitionByKey,
    deadEnds: (ops) => kvDeadEnds<KvCell>(ops, cellItself),
    // One key's order as its values tell it, proven before any search (proven-order.ts).
    orderHint: kvOrderHint,
    describeState: (c) => showValue(c.value),
  };
}

function kvStoreModel(): Model<KvStore> {
  return {
    ...shared,
    init: () => ({ cells: new Map(), hash: 0 }),
    step(store, op) {
      const key = keyOf(op);
      const before = store.cells.get(key) ?? EMPTY;
      const after = stepCell(before, op);
      if (typeof after === 'function') return illegal(after);
      if (after === before) return { ok: true, state: store };
      const cells = new Map(store.cells);
      cells.set(key, after);
      return { ok: true, state: { cells, hash: (store.hash - keyed(key, before) + keyed(key, after)) | 0 } };
    },
    hash: (s) => s.hash,
    deadEnds: (ops) => kvDeadEnds<KvStore>(ops, cellOfKey),
    // Each key is its own register inside the store: the search learns failures per key (keyed-wgl.ts).
    parts: {
      partOf: keyOf,
      part: cellOfKey,
      hash: (c: KvCell) => c.hash,
      equal: (a: KvCell, b: KvCell) => a.hash === b.hash && a.value === b.value,
    } as StateParts<KvStore>,
    // A store copies its Map of cells on every change: a Map entry per key, plus the new cell.
    sizeOf: (s) => 160 + 40 * s.cells.size,
    equal(a, b) {
      if (a.hash !== b.hash) return false;
      const keys = new Set([...a.cells.keys(), ...b.cells.keys()]);
      for (const k of keys) if ((a.cells.get(k) ?? EMPTY).value !== (b.cells.get(k) ?? EMPTY).value) return false;
      return true;
    },
    describeState: (s) =>
      [...s.cells]
        .filter(([, c]) => c.value !== '')
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, c]) => `${k}=${showValue(c.value)}`)
        .join(', ') || 'all keys ""',
  };
}

const shared = {
  name: 'kv',
  functions: ['get', 'put', 'append'],
  isInert: (op: Operation) => op.f === 'get',
  isReadOnly: (op: Operation) => op.f === 'get',
  partitionLabel: (op: Operation) => `key ${JSON.stringify(keyOf(op))}`,
  describeOperation(op: Operation): string {
    if (op.f === 'get') return `get ${keyOf(op)} → ${op.output === null ? '?' : showValue(kvValueOf(op.output))}`;
    return `${op.f} ${keyOf(op)} ${showValue(kvValueOf(op.input))}`;
  },
};

/** The next cell, or (a thunk of) the reason the op is illegal. Returns `cell` itself when nothing changes. */
function stepCell(cell: KvCell, op: Operation): KvCell | (() => string) {
  switch (op.f) {
    case 'get': {
      const seen = op.output === null ? null : kvValueOf(op.output);
      // Compare hashes first: comparing with a long appended (rope) string would flatten it.
      if (seen === null || (getHash(op, seen) === cell.hash && seen === cell.value)) return cell;
      return () => `get ${keyOf(op)} returned ${showValue(seen)}, but the key holds ${showValue(cell.value)}`;
    }
    case 'put': {
      const v = kvWrittenValue(op);
      return { value: v, hash: fnvContinue(FNV_OFFSET, v) };
    }
    case 'append': {
      const v = kvWrittenValue(op);
      return { value: cell.value + v, hash: fnvContinue(cell.hash, v) };
    }
    default:
      return () => `the kv model has no operation ${JSON.stringify(op.f)}`;
  }
}

const getHashes = new WeakMap<Operation, number>();

/** The FNV hash of the value a get returned, computed once per operation. */
function getHash(op: Operation, seen: Value): number {
  let h = getHashes.get(op);
  if (h === undefined) getHashes.set(op, (h = fnvContinue(FNV_OFFSET, String(seen))));
  return h;
}

/** A key's contribution to the store hash; summed, so the total does not depend on key order. */
function keyed(key: string, cell: KvCell): number {
  return cell === EMPTY || cell.value === '' ? 0 : Math.imul(fnvContinue(FNV_OFFSET, key) | 1, cell.hash ^ 0x7feb352d);
}

// The two models' cells, as one function each for every part (a new closure per part is a new callee for the search).
const cellItself = (c: KvCell): KvCell => c;
const cellOfKey = (s: KvStore, key: string): KvCell => s.cells.get(key) ?? EMPTY;

/** How many not-yet-linearized gets of the key a dead-end test looks at (the earliest invoked: the nearest constraints). */
const LOOKAHEAD_GETS = 8;

/**
 * Lookahead (Model.deadEnds). Once a key holds `s`, every later value of the
 * key is `s` plus appends, or the value of a put not yet linearized plus
 * appends. So a completed get not yet linearized whose value starts neither
 * with `s` nor with such a put's value can never be satisfied, and the
 * configuration is a dead end. Why: without it the search tries every order
 * of the appends concurrent with a get before reaching the get that rules
 * them out (one key of c50-ok: 760,000 steps for 170 ops).
 *
 * Prefixes are compared by FNV hash: each get's prefix hashes are computed
 * once, so a test allocates nothing and never flattens the state's (rope)
 * string. Unequal hashes prove a mismatch; equal ones count as a match (a
 * collision only prunes less), so a dead end is always a proof. The get
 * returned is illegal in the state (its value differs), so the witness's
 * reason is the model's own.
 */
function kvDeadEnds<S>(ops: readonly Operation[], cellOf: (state: S, key: string) => KvCell): DeadEndTest<S> | undefined {
  const index = indexKvOps(ops);
  if (index.gets.every((g) => g.length === 0)) return undefined;
  const { keyOfOp, keys } = index;
  const prefixes = new GetPrefixes(ops, index);
  // Fixed arrays, read in the hot test (only `prefixes.hashes` grows, so it is read through the object).
  const { hashesAt, hashCount, resetsAt, resetCount, resets } = prefixes;
  const getsOf = index.gets.map((g) => Int32Array.from(g));
  const isSet = (words: Uint32Array, i: number) => (words[i >> 5]! & (1 << (i & 31))) !== 0;
  return (state, op, linearized, lo) => {
    const k = keyOfOp[op]!;
    const list = getsOf[k]!;
    if (list.length === 0) return -1;
    const cell = cellOf(state, keys[k]!);
    const len = cell.value.length;
    const hash = cell.hash;
    let checked = 0;
    for (let i = lowerBound(list, lo << 5); i < list.length && checked < LOOKAHEAD_GETS; i++) {
      const g = list[i]!;
      if (isSet(linearized, g)) continue;
      checked++;
      let at = hashesAt[g]!;
      if (at === -1) at = prefixes.prepare(g);
      if (len < hashCount[g]! && prefixes.hashes[at + len] === hash) continue;
      let reachable = false;
      for (let p = resetsAt[g]!, end = p + resetCount[g]!; p < end && !reachable; p++) reachable = !isSet(linearized, resets[p]!);
      if (!reachable) return g;
    }
    return -1;
  };
}

/** What the lookahead needs of the history, per key: its completed gets with a string value, its puts by value. */
interface KvOpIndex {
  keyOfOp: Int32Array;
  keys: string[];
  /** Per key: its completed gets (op index, ascending) with a string value. */
  gets: number[][];
  /** Per key: put value hash → the puts with that value. */
  putsByHash: Map<number, number[]>[];
  /** Per key: the lengths of its put values. */
  putLengths: Set<number>[];
}

function indexKvOps(ops: readonly Operation[]): KvOpIndex {
  const keyIds = new Map<string, number>();
  const keyOfOp = new Int32Array(ops.length);
  ops.forEach((op, i) => {
    const key = keyOf(op);
    let id = keyIds.get(key);
    if (id === undefined) keyIds.set(key, (id = keyIds.size));
    keyOfOp[i] = id;
  });
  const keys = [...keyIds.keys()];
  const gets: number[][] = keys.map(() => []);
  const putsByHash = keys.map(() => new Map<number, number[]>());
  const putLengths = keys.map(() => new Set<number>());
  ops.forEach((op, i) => {
    if (op.f === 'get' && op.ret !== Infinity && typeof kvValueOf(op.output) === 'string') {
      gets[keyOfOp[i]!]!.push(i);
    } else if (op.f === 'put') {
      const v = kvWrittenValue(op);
      const h = fnvContinue(FNV_OFFSET, v);
      const byHash = putsByHash[keyOfOp[i]!]!;
      const same = byHash.get(h);
      if (same === undefined) byHash.set(h, [i]);
      else same.push(i);
      putLengths[keyOfOp[i]!]!.add(v.length);
    }
  });
  return { keyOfOp, keys, gets, putsByHash, putLengths };
}

/**
 * Per get, made when the get is first looked at (many never are): its value's prefix hashes, and the puts whose
 * value is a prefix of the get's (a put not yet linearized can still lead to the get). Both live in arenas:
 * two small typed arrays per get were a third of a long history's garbage collection.
 */
class GetPrefixes {
  readonly hashesAt: Int32Array;
  readonly hashCount: Int32Array;
  hashes = new Int32Array(1 << 12);
  private hashesUsed = 0;
  readonly resetsAt: Int32Array;
  readonly resetCount: Int32Array;
  readonly resets: number[] = [];

  constructor(
    private readonly ops: readonly Operation[],
    private readonly index: KvOpIndex,
  ) {
    this.hashesAt = new Int32Array(ops.length).fill(-1);
    this.hashCount = new Int32Array(ops.length);
    this.resetsAt = new Int32Array(ops.length);
    this.resetCount = new Int32Array(ops.length);
  }

  /** Fills get `g`'s prefix hashes and resets; returns where its hashes start. */
  prepare(g: number): number {
    const { ops, resets } = this;
    const value = kvValueOf(ops[g]!.output) as string;
    const at = this.hashesUsed;
    if (at + value.length + 1 > this.hashes.length) {
      const grown = new Int32Array(Math.max(this.hashes.length * 2, at + value.length + 1));
      grown.set(this.hashes.subarray(0, at));
      this.hashes = grown;
    }
    const hashes = this.hashes;
    let h = FNV_OFFSET;
    hashes[at] = h;
    for (let c = 0; c < value.length; c++) hashes[at + c + 1] = h = Math.imul(h ^ value.charCodeAt(c), 0x01000193);
    this.hashesUsed = at + value.length + 1;
    this.hashesAt[g] = at;
    this.hashCount[g] = value.length + 1;
    const k = this.index.keyOfOp[g]!;
    this.resetsAt[g] = resets.length;
    // Only the prefixes as long as some put's value (a handful of lengths, not every prefix).
    for (const len of this.index.putLengths[k]!) {
      const puts = len <= value.length ? this.index.putsByHash[k]!.get(hashes[at + len]!) : undefined;
      if (puts) for (const p of puts) if (value.startsWith(kvWrittenValue(ops[p]!))) resets.push(p);
    }
    this.resetCount[g] = resets.length - this.resetsAt[g]!;
    return at;
  }
}

/** The first position in ascending `xs` whose value is >= x. */
function lowerBound(xs: Int32Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function partitionByKey(ops: Operation[]): Operation[][] {
  const parts = new Map<string, Operation[]>();
  for (const op of ops) {
    const key = keyOf(op);
    let part = parts.get(key);
    if (!part) parts.set(key, (part = []));
    part.push(op);
  }
  // Deterministic order: by key, so witnesses are stable.
  return [...parts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

function keyOf(op: Operation): string {
  const v = op.input;
  return Array.isArray(v) ? String(v[0]) : String(v);
}
