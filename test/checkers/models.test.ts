/**
 * Example-based tests of the models' step semantics and of check() on tiny
 * hand-written histories: closed intervals, indeterminate (info and
 * never-completed) operations, each model's reading of `fail`, nil reads,
 * the mutex's "already held", and the 'unknown' verdicts of a deadline and a
 * memory ceiling. The random comparison with the brute-force reference is in
 * linearizability-reference.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { History, Op, OpType, Value } from '../../core/history/op.js';
import { check } from '../../core/checkers/linearizability/check.js';
import type { Model } from '../../core/checkers/model.js';
import { kvModel } from '../../core/checkers/models/kv.js';
import { createModel, MODEL_NAMES, type ModelName } from '../../core/checkers/models/registry.js';
import type { Operation } from '../../core/checkers/operation.js';
import { buildHistory } from '../support/random-history.js';

/** An operation as a model's step sees it. */
function op(f: string, input: Value, output: Value = null, status: Operation['status'] = 'ok'): Operation {
  const pending = status === 'pending';
  return { id: 0, process: 0, f, input, output, status, call: 0, ret: pending ? Infinity : 1, invokeIndex: 0, completeIndex: pending ? null : 1 };
}

/** The step's outcome with its reason formatted, for toEqual. */
function step<S>(model: Model<S>, state: S, o: Operation): { state: S } | { illegal: string } {
  const r = model.step(state, o);
  return r.ok ? { state: r.state } : { illegal: r.reason() };
}

/** [process, type, f, value, time]: one history event; time defaults to the index. */
type Ev = [process: number, type: OpType, f: string, value?: Value, time?: number];

function history(...events: Ev[]): History {
  return buildHistory(events.map(([process, type, f, value, time]) => ({ process, type, f, value, time })));
}

const verdict = (name: ModelName, h: History, init?: Value): boolean | 'unknown' => check(createModel(name, init === undefined ? {} : { init }), h).valid;

describe('register', () => {
  const m = createModel('register');
  it('a write sets the value and a read must return it', () => {
    expect(step(m, null, op('write', 3, 3))).toEqual({ state: 3 });
    expect(step(m, 3, op('read', null, 3))).toEqual({ state: 3 });
    expect(step(m, 3, op('read', null, 2))).toEqual({ illegal: 'read 2, but the register holds 3' });
  });
  it('a nil read tells nothing and matches any state (Knossos)', () => {
    expect(step(m, 3, op('read', null, null))).toEqual({ state: 3 });
  });
  it('has no cas', () => {
    expect(m.step(1, op('cas', [1, 2])).ok).toBe(false);
  });
  it('drops pending reads as inert, and failed ops', () => {
    expect(m.isInert?.(op('read', null, null, 'pending'))).toBe(true);
    expect(m.isInert?.(op('write', 1, null, 'pending'))).toBe(false);
    expect(m.onFail).toBeUndefined();
  });
});

describe('cas-register', () => {
  const m = createModel('cas-register', { init: 0 });
  it('starts at its initial value', () => {
    expect(m.init()).toBe(0);
  });
  it('a cas [from to] is legal iff the register holds from', () => {
    expect(step(m, 1, op('cas', [1, 2]))).toEqual({ state: 2 });
    expect(step(m, 3, op('cas', [1, 2]))).toEqual({ illegal: "can't cas 1→2: the register holds 3" });
    expect(step(m, 1, op('cas', [1, 2], null, 'pending'))).toEqual({ state: 2 });
  });
  it('a nil read matches any state, as in the register', () => {
    expect(step(m, 5, op('read', null, null))).toEqual({ state: 5 });
  });
  it('drops failed ops (no onFail: Knossos convention)', () => {
    expect(m.onFail).toBeUndefined();
  });
});

describe('etcd', () => {
  const m = createModel('etcd');
  const invoke = (f: string): Op => ({ index: 0, time: 0, process: 0, type: 'invoke', f, value: null });
  const fail = (f: string): Op => ({ index: 1, time: 1, process: 0, type: 'fail', f, value: null });
  it('starts absent (nil)', () => {
    expect(m.init()).toBe(null);
  });
  it('a nil read is exact: the key is absent', () => {
    expect(step(m, null, op('read', null, null))).toEqual({ state: null });
    expect(step(m, 1, op('read', null, null))).toEqual({ illegal: 'read nil, but the key holds 1' });
  });
  it('a failed cas is an observation: legal iff the value differed, and it changes nothing', () => {
    expect(step(m, 3, op('cas', [1, 2], [1, 2], 'fail'))).toEqual({ state: 3 });
    expect(step(m, 1, op('cas', [1, 2], [1, 2], 'fail'))).toEqual({ illegal: 'cas 1→2 failed, but the register held 1' });
    expect(step(m, 1, op('cas', [1, 2]))).toEqual({ state: 2 });
  });
  it('reads a failed cas as an observation, a failed read or write as may-have-happened', () => {
    expect(m.onFail?.(invoke('cas'), fail('cas'))).toBe('observation');
    expect(m.onFail?.(invoke('write'), fail('write'))).toBe('pending');
    expect(m.onFail?.(invoke('read'), fail('read'))).toBe('pending');
  });
});

describe('kv', () => {
  const cell = kvModel();
  const store = kvModel({ partition: false });
  it('put sets, append concatenates, get [k v] must return the value', () => {
    let c = cell.init();
    for (const o of [op('put', ['a', 'x']), op('append', ['a', 'y'])]) {
      const r = cell.step(c, o);
      if (!r.ok) throw new Error(r.reason());
      c = r.state;
    }
    expect(c.value).toBe('xy');
    expect(cell.step(c, op('get', ['a', null], ['a', 'xy'])).ok).toBe(true);
    expect(step(cell, c, op('get', ['a', null], ['a', 'x']))).toEqual({ illegal: 'get a returned "x", but the key holds "xy"' });
    expect(cell.step(cell.init(), op('get', ['a', null], ['a', ''])).ok).toBe(true);
  });
  it('partitions by key in key order, with a label per key', () => {
    const ops = [op('put', ['b', 'x']), op('get', ['a', null], ['a', '']), op('append', ['b', 'y'])].map((o, id) => ({ ...o, id }));
    expect(cell.partition?.(ops).map((p) => p.map((o) => o.id))).toEqual([[1], [0, 2]]);
    expect(cell.partitionLabel?.(ops[0]!)).toBe('key "b"');
  });
  it('without partitioning keeps the keys independent in one state', () => {
    let s = store.init();
    for (const o of [op('put', ['a', 'x']), op('append', ['b', 'y']), op('append', ['a', 'z'])]) {
      const r = store.step(s, o);
      if (!r.ok) throw new Error(r.reason());
      s = r.state;
    }
    expect(store.step(s, op('get', ['a', null], ['a', 'xz'])).ok).toBe(true);
    expect(store.step(s, op('get', ['b', null], ['b', 'y'])).ok).toBe(true);
    expect(store.step(s, op('get', ['c', null], ['c', ''])).ok).toBe(true);
    expect(store.step(s, op('get', ['b', null], ['b', 'xz'])).ok).toBe(false);
  });
});

describe('mutex', () => {
  const m = createModel('mutex');
  it('acquire is legal iff free, release iff held (Knossos: "already held")', () => {
    expect(step(m, false, op('acquire', null))).toEqual({ state: true });
    expect(step(m, true, op('acquire', null))).toEqual({ illegal: 'already held' });
    expect(step(m, true, op('release', null))).toEqual({ state: false });
    expect(step(m, false, op('release', null))).toEqual({ illegal: 'not held' });
  });
});

describe('check() on tiny histories', () => {
  it.each(MODEL_NAMES)('an empty history has no verdict (%s): nothing was observed', (name) => {
    const result = check(createModel(name), []);
    expect(result).toMatchObject({ valid: 'unknown', stats: { operations: 0 } });
    expect(result.reason).toMatch(/^nothing was observed/);
  });

  it('closed intervals: an op returning at t is concurrent with one invoked at t', () => {
    // write 1 over [0, 5]; read nil over [5, 6]: the read may precede the write.
    const touching = history([0, 'invoke', 'write', 1, 0], [0, 'ok', 'write', 1, 5], [1, 'invoke', 'read', null, 5], [1, 'ok', 'read', null, 6]);
    expect(verdict('etcd', touching)).toBe(true);
    const after = history([0, 'invoke', 'write', 1, 0], [0, 'ok', 'write', 1, 5], [1, 'invoke', 'read', null, 6], [1, 'ok', 'read', null, 7]);
    expect(verdict('etcd', after)).toBe(false);
  });

  it('orders by index when times go backwards', () => {
    // The same events as above, with the write's times after the read's: not monotonic, so index order says the write came first.
    const h = history([0, 'invoke', 'write', 1, 10], [0, 'ok', 'write', 1, 11], [1, 'invoke', 'read', null, 2], [1, 'ok', 'read', null, 3]);
    expect(verdict('etcd', h)).toBe(false);
  });

  it('an info op may take effect late, long after it returned', () => {
    const h = history(
      [0, 'invoke', 'write', 1],
      [0, 'info', 'write', 1],
      [1, 'invoke', 'read'],
      [1, 'ok', 'read', null],
      [1, 'invoke', 'read'],
      [1, 'ok', 'read', 1],
    );
    expect(verdict('etcd', h)).toBe(true);
    expect(verdict('cas-register', h, 0)).toBe(true);
  });

  it('an info op takes effect once: it cannot be seen and then unseen', () => {
    const h = history(
      [0, 'invoke', 'write', 1],
      [0, 'info', 'write', 1],
      [1, 'invoke', 'read'],
      [1, 'ok', 'read', 1],
      [1, 'invoke', 'read'],
      [1, 'ok', 'read', null],
    );
    expect(verdict('etcd', h)).toBe(false);
  });

  it('an info op may never take effect', () => {
    const h = history(
      [0, 'invoke', 'write', 1],
      [0, 'info', 'write', 1],
      [1, 'invoke', 'read'],
      [1, 'ok', 'read', null],
      [1, 'invoke', 'read'],
      [1, 'ok', 'read', null],
    );
    expect(verdict('etcd', h)).toBe(true);
  });

  it('a never-completed op may take effect, but reads see only what was written', () => {
    const seen = history([0, 'invoke', 'write', 1], [1, 'invoke', 'read'], [1, 'ok', 'read', 1]);
    expect(verdict('etcd', seen)).toBe(true);
    const unwritten = history([0, 'invoke', 'write', 1], [1, 'invoke', 'read'], [1, 'ok', 'read', 2]);
    expect(verdict('etcd', unwritten)).toBe(false);
  });

  it('of identical pending writes, each may take effect at its own time', () => {
    // Two indeterminate writes of 1, then 2 is written, 1 is read, 3 is written, and 1 is read again:
    // one write of 1 must land after 2, the other after 3.
    const tail: Ev[] = [
      [2, 'invoke', 'write', 2],
      [2, 'ok', 'write', 2],
      [3, 'invoke', 'read'],
      [3, 'ok', 'read', 1],
      [4, 'invoke', 'write', 3],
      [4, 'ok', 'write', 3],
      [3, 'invoke', 'read'],
      [3, 'ok', 'read', 1],
    ];
    const twice = history([0, 'invoke', 'write', 1], [0, 'info', 'write', 1], [1, 'invoke', 'write', 1], [1, 'info', 'write', 1], ...tail);
    expect(verdict('etcd', twice)).toBe(true);
    const once = history([0, 'invoke', 'write', 1], [0, 'info', 'write', 1], ...tail);
    expect(verdict('etcd', once)).toBe(false);
  });

  it('a failed cas: dropped under cas-register, an observation under etcd', () => {
    // The register holds 0 throughout, yet the cas [0 1] failed.
    const h = history([0, 'invoke', 'cas', [0, 1]], [0, 'fail', 'cas', [0, 1]], [1, 'invoke', 'read'], [1, 'ok', 'read', 0]);
    expect(verdict('cas-register', h, 0)).toBe(true);
    expect(verdict('etcd', h, 0)).toBe(false);
    // With a concurrent write of 2, the compare may have seen 2.
    const raced = history(
      [0, 'invoke', 'cas', [0, 1]],
      [2, 'invoke', 'write', 2],
      [2, 'ok', 'write', 2],
      [0, 'fail', 'cas', [0, 1]],
      [1, 'invoke', 'read'],
      [1, 'ok', 'read', 2],
    );
    expect(verdict('etcd', raced, 0)).toBe(true);
  });

  it('a failed write: dropped under cas-register, may have happened under etcd', () => {
    const h = history([0, 'invoke', 'write', 1], [0, 'fail', 'write', 1], [1, 'invoke', 'read'], [1, 'ok', 'read', 1]);
    expect(verdict('cas-register', h)).toBe(false);
    expect(verdict('etcd', h)).toBe(true);
  });

  it('a nil read: a wildcard under cas-register, "absent" under etcd', () => {
    const h = history([0, 'invoke', 'write', 1], [0, 'ok', 'write', 1], [1, 'invoke', 'read'], [1, 'ok', 'read', null]);
    expect(verdict('cas-register', h)).toBe(true);
    const r = check(createModel('etcd'), h);
    expect(r.valid).toBe(false);
    expect(r.witness?.reason).toBe('read nil, but the key holds 1');
  });

  it('mutex: a second acquire while held fails with "already held"', () => {
    const h = history([0, 'invoke', 'acquire'], [0, 'ok', 'acquire'], [1, 'invoke', 'acquire'], [1, 'ok', 'acquire']);
    const r = check(createModel('mutex'), h);
    expect(r.valid).toBe(false);
    expect(r.witness).toMatchObject({ partitionLabel: 'all', state: 'held', reason: 'already held', op: { process: 1, f: 'acquire' } });
    expect(r.witness?.prefix.map((o) => o.process)).toEqual([0]);
  });

  it('mutex: a failed acquire never happened; an info acquire may not have', () => {
    const failed = history([0, 'invoke', 'acquire'], [0, 'fail', 'acquire'], [1, 'invoke', 'acquire'], [1, 'ok', 'acquire']);
    expect(verdict('mutex', failed)).toBe(true);
    const info = history([0, 'invoke', 'acquire'], [0, 'info', 'acquire'], [1, 'invoke', 'acquire'], [1, 'ok', 'acquire']);
    expect(verdict('mutex', info)).toBe(true);
    const released = history(
      [0, 'invoke', 'acquire'],
      [0, 'ok', 'acquire'],
      [0, 'invoke', 'release'],
      [0, 'ok', 'release'],
      [1, 'invoke', 'acquire'],
      [1, 'ok', 'acquire'],
    );
    expect(verdict('mutex', released)).toBe(true);
  });

  it('kv: keys are independent, and the witness names the key', () => {
    const h = history([0, 'invoke', 'put', ['a', 'x']], [0, 'ok', 'put', ['a', 'x']], [1, 'invoke', 'get', ['b', null]], [1, 'ok', 'get', ['b', 'x']]);
    const r = check(createModel('kv'), h);
    expect(r.valid).toBe(false);
    expect(r.witness).toMatchObject({ partitionLabel: 'key "b"', prefix: [], reason: 'get b returned "x", but the key holds ""' });
    expect(check(createModel('kv', { partition: false }), h).valid).toBe(false);
  });

  it('kv lookahead: appends a later get pins are not tried in every order, with the same verdicts', () => {
    // 8 concurrent appends, then gets that fix their order (valid) or read an order no append sequence gives (invalid).
    const appends = (n: number): Ev[] => [
      ...Array.from({ length: n }, (_, p): Ev => [p, 'invoke', 'append', ['k', `v${p};`]]),
      ...Array.from({ length: n }, (_, p): Ev => [p, 'ok', 'append', ['k', `v${p};`]]),
    ];
    const order = [3, 1, 7, 0, 2, 6, 5, 4].map((p) => `v${p};`).join('');
    const valid = history(...appends(8), [20, 'invoke', 'get', ['k', null]], [20, 'ok', 'get', ['k', order]]);
    const invalid = history(...appends(8), [20, 'invoke', 'get', ['k', null]], [20, 'ok', 'get', ['k', order.replace('v0;', 'v3;')]]);
    // Both searched: the model's guess at the order (orderHint) would decide the valid one with no search at all.
    const searched = { ...createModel('kv'), orderHint: undefined };
    const withoutLookahead = { ...searched, deadEnds: undefined };
    for (const [h, expected] of [
      [valid, true],
      [invalid, false],
    ] as const) {
      const pruned = check(searched, h);
      const full = check(withoutLookahead, h);
      expect(pruned.valid).toBe(expected);
      expect(full.valid).toBe(expected);
      // Without the lookahead the search walks the 8! orders' prefixes; with it, only those the get allows.
      expect(pruned.stats.steps * 50).toBeLessThan(full.stats.steps);
    }
    // A witness found through the lookahead names the get it rules out and the state that rules it out, with the
    // model's own reason (the get is illegal there), as a witness found without it does.
    const w = check(createModel('kv'), invalid).witness!;
    expect(w.op.f).toBe('get');
    expect(w.state).toBe(JSON.stringify(w.prefix.map((o) => (o.input as Value[])[1]).join('')));
    expect(w.reason).toMatch(/^get k returned ".*", but the key holds ".*"$/);
    // The same on the unpartitioned model (the lookahead looks at the key the step changed).
    expect(check(createModel('kv', { partition: false }), valid).valid).toBe(true);
    expect(check(createModel('kv', { partition: false }), invalid).valid).toBe(false);
  });

  it('a history that needs several rounds of search budget is still decided', () => {
    // 12 indeterminate writes: hundreds of thousands of steps, past the first round's budget.
    const r = check(createModel('etcd'), hardHistory(12));
    expect(r.valid).toBe(false);
    expect(r.witness?.reason).toMatch(/^read -1, but the key holds /);
  });

  it('an easy violation in one part is found without finishing a hard part', () => {
    // The get reads a number, which no string value equals: the kv lookahead (string prefixes) cannot rule out an
    // order early, so the search must try the orders of the 14 pending appends.
    const hardA = hardHistory(14).map((e): Op =>
      e.process === 14 ? { ...e, f: 'get', value: ['a', e.type === 'ok' ? 7 : null] } : { ...e, f: 'append', value: ['a', String(e.value)] },
    );
    const easyB = history([100, 'invoke', 'get', ['b', null]], [100, 'ok', 'get', ['b', 'x']]).map((e) => ({
      ...e,
      index: e.index + hardA.length,
      time: e.time + hardA.length,
    }));
    const r = check(createModel('kv'), [...hardA, ...easyB]);
    expect(r.valid).toBe(false);
    expect(r.witness?.partitionLabel).toBe('key "b"');
  });

  it("timeoutMs: 0 gives 'unknown' with a reason on a hard history", () => {
    const r = check(createModel('cas-register'), hardHistory(20), { timeoutMs: 0 });
    expect(r.valid).toBe('unknown');
    expect(r.reason).toMatch(/deadline of 0 ms/);
  });

  it('a deadline passed while the parts are set up stops there, before any search', () => {
    // Many easy parts, each decided in a few steps: before, every part was set up and searched past the deadline.
    const events: Ev[] = [];
    for (let k = 0; k < 200; k++) events.push([k, 'invoke', 'put', [`k${k}`, 'v']], [k, 'ok', 'put', [`k${k}`, 'v']]);
    const r = check(createModel('kv'), history(...events), { timeoutMs: 0 });
    expect(r.valid).toBe('unknown');
    expect(r.reason).toMatch(/^deadline of 0 ms reached with \d+ of 200 partitions undecided$/);
    expect(r.stats.steps).toBe(0);
    expect(check(createModel('kv'), history(...events)).valid).toBe(true);
  });

  it("a memory ceiling gives 'unknown' with a reason, counted in bytes, not time", () => {
    const r = check(createModel('cas-register'), hardHistory(20), { maxCacheBytes: 2 ** 20 });
    expect(r.valid).toBe('unknown');
    // The configured ceiling, not the size the growth that passed it would have reached.
    expect(r.reason).toMatch(/reached their ceiling of 1 MiB/);
  });
});

/**
 * `writers` concurrent writes of distinct values, all indeterminate, then a
 * read of a value none wrote: invalid, but only after trying every subset and
 * order of the writes (no two are identical, so nothing prunes them).
 */
function hardHistory(writers: number): History {
  const events: Ev[] = [];
  for (let p = 0; p < writers; p++) events.push([p, 'invoke', 'write', p]);
  for (let p = 0; p < writers; p++) events.push([p, 'info', 'write', p]);
  events.push([writers, 'invoke', 'read'], [writers, 'ok', 'read', -1]);
  return history(...events);
}

// Regressions: bugs these tests found in check(), each with its minimal history.
describe('check() regressions', () => {
  // append b "x", then get a → "x", in sequence: not linearizable (key a was never written).
  const crossKey = history(
    [0, 'invoke', 'append', ['b', 'x']],
    [0, 'ok', 'append', ['b', 'x']],
    [0, 'invoke', 'get', ['a', null]],
    [0, 'ok', 'get', ['a', 'x']],
  );

  it("kv is invalid on a get of a key only another key's append wrote, partitioned or not", () => {
    // Was: check(kv, h, { noPartition: true }) stepped one key's cell over all keys and said valid.
    expect(check(createModel('kv'), crossKey).valid).toBe(false);
    expect(check(createModel('kv', { partition: false }), crossKey).valid).toBe(false);
  });

  it('an unpartitioned check labels its one part "all", not the first op\'s key', () => {
    expect(check(createModel('kv', { partition: false }), crossKey).witness?.partitionLabel).toBe('all');
  });

  it("a memory ceiling smaller than one part's initial tables gives 'unknown', not an exception", () => {
    const h = history([0, 'invoke', 'write', 1], [0, 'ok', 'write', 1]);
    const r = check(createModel('cas-register'), h, { maxCacheBytes: 1000 });
    expect(r.valid).toBe('unknown');
    expect(r.reason).toMatch(/MiB/);
  });

  it('the deadline reason counts the part the deadline stopped as undecided', () => {
    expect(check(createModel('cas-register'), hardHistory(20), { timeoutMs: 0 }).reason).toMatch(/1 of 1 partitions? undecided/);
  });
});
