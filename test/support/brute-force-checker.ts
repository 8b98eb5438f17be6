/**
 * A brute-force linearizability reference, written from the definition and
 * not from the fast checker (checkers/linearizability/), so the two can be
 * compared on random small histories.
 *
 * Definition (Herlihy & Wing, with Jepsen's reading of indeterminacy): a
 * history is linearizable iff there is a choice, for every *pending*
 * operation (completed `info`, never completed, or a `fail` the model cannot
 * trust), of whether it took effect, and a total order of the chosen
 * operations and all completed ones such that
 *   1. A comes before B whenever A returned strictly before B was invoked
 *      (intervals are closed: an op returning at t overlaps one invoked at t;
 *      a pending op never returns, so it precedes nothing), and
 *   2. the model, stepped along the order from its initial state, allows
 *      every operation.
 * `fail` means the operation did not happen, unless the spec reads the
 * failure of that `f` as an observation (etcd's failed cas) or as unknown.
 *
 * The search is deliberately naive: every subset of the pending operations,
 * then a depth-first search over total orders, each step choosing an
 * operation no unplaced operation must precede. Exponential, fine for <= 8.
 *
 * This file also holds spec models: each model's semantics restated in a few
 * plain lines, independent of checkers/models/. The tests check that they
 * agree with the registry's models step by step, and run the reference on
 * them, so that nothing of the fast checker's code is on the reference side.
 */
import type { History, Op, Value } from '../../core/history/op.js';
import type { Model } from '../../core/checkers/model.js';
import type { Operation } from '../../core/checkers/operation.js';
import type { ModelName } from '../../core/checkers/models/registry.js';

/** How the reference reads a `fail` completion of an op with this `f`. */
export type RefFailPolicy = 'dropped' | 'observation' | 'pending';

/** What the reference needs of a model: a step that returns the next state or undefined when illegal. */
export interface Spec<S> {
  name: string;
  init(): S;
  step(state: S, op: Operation): S | undefined;
  failPolicy(f: string): RefFailPolicy;
}

export interface ReferenceResult {
  valid: boolean;
  /** For a valid history: one linearization found. */
  order?: Operation[];
}

/**
 * Pair each invocation with the next completion of its process. Real-time
 * order uses `time` when every event has a finite time and times never
 * decrease along the history (nemesis events included), else the history
 * index. Ops a `fail` drops are removed; ids are 0.. in invocation order.
 */
export function pairOperations(history: History, failPolicy: (f: string) => RefFailPolicy): Operation[] {
  const byTime = history.length > 0 && history.every((e, i) => Number.isFinite(e.time) && (i === 0 || history[i - 1]!.time <= e.time));
  const at = (e: Op): number => (byTime ? e.time : e.index);
  const open = new Map<number, Operation>();
  const all: Operation[] = [];
  const dropped = new Set<Operation>();
  for (const e of history) {
    if (typeof e.process !== 'number') continue;
    if (e.type === 'invoke') {
      const op: Operation = {
        id: all.length,
        process: e.process,
        f: e.f,
        input: e.value,
        output: null,
        status: 'pending',
        call: at(e),
        ret: Infinity,
        invokeIndex: e.index,
        completeIndex: null,
      };
      all.push(op);
      open.set(e.process, op);
      continue;
    }
    const op = open.get(e.process);
    if (op === undefined) continue;
    open.delete(e.process);
    op.completeIndex = e.index;
    if (e.type === 'info') continue;
    const policy = e.type === 'ok' ? 'ok' : failPolicy(op.f);
    if (policy === 'dropped') dropped.add(op);
    if (policy === 'ok' || policy === 'observation') {
      op.status = policy === 'ok' ? 'ok' : 'fail';
      op.output = e.value;
      op.ret = at(e);
    }
  }
  return all.filter((o) => !dropped.has(o)).map((o, id) => ({ ...o, id }));
}

/** Is the history linearizable under `spec`? Brute force: see the module comment. */
export function referenceCheck<S>(spec: Spec<S>, history: History): ReferenceResult {
  const ops = pairOperations(history, (f) => spec.failPolicy(f));
  const completed = ops.filter((o) => o.ret !== Infinity);
  const pending = ops.filter((o) => o.ret === Infinity);
  for (let mask = 0; mask < 2 ** pending.length; mask++) {
    const chosen = [...completed, ...pending.filter((_, i) => (mask >> i) & 1)];
    const order = findOrder(spec, chosen);
    if (order) return { valid: true, order };
  }
  return { valid: false };
}

/** A total order of all `ops` that respects real time and the spec, or undefined. */
function findOrder<S>(spec: Spec<S>, ops: Operation[]): Operation[] | undefined {
  const placed = ops.map(() => false);
  const order: Operation[] = [];
  // `before[i]`: the ops that must come before op i (they returned strictly before it was invoked).
  const before = ops.map((b) => ops.map((a, j) => (a.ret < b.call ? j : -1)).filter((j) => j !== -1));
  const dfs = (state: S): boolean => {
    if (order.length === ops.length) return true;
    for (let i = 0; i < ops.length; i++) {
      if (placed[i] || before[i]!.some((j) => !placed[j])) continue;
      const next = spec.step(state, ops[i]!);
      if (next === undefined) continue;
      placed[i] = true;
      order.push(ops[i]!);
      if (dfs(next)) return true;
      order.pop();
      placed[i] = false;
    }
    return false;
  };
  return dfs(spec.init()) ? order : undefined;
}

/** The reference over a registry model's own step (the model semantics are the spec), with the spec's fail policy. */
export function specOfModel<S>(model: Model<S>, failPolicy: (f: string) => RefFailPolicy): Spec<S> {
  return {
    name: model.name,
    init: () => model.init(),
    step: (s, op) => {
      const r = model.step(s, op);
      return r.ok ? r.state : undefined;
    },
    failPolicy,
  };
}

// ---- Spec models: the semantics of each model, restated plainly. ----

const same = (a: Value, b: Value): boolean => JSON.stringify(a) === JSON.stringify(b);

function pair(v: Value): [Value, Value] | undefined {
  return Array.isArray(v) && v.length === 2 ? [v[0]!, v[1]!] : undefined;
}

const dropFails = (): RefFailPolicy => 'dropped';

/** Knossos' register: write v; a read returns the value, and a nil read tells nothing. */
export function registerSpec(initial: Value = null): Spec<Value> {
  return {
    name: 'register',
    init: () => initial,
    step: (s, op) => {
      if (op.f === 'write') return op.input;
      if (op.f === 'read') return op.output === null || same(op.output, s) ? s : undefined;
      return undefined;
    },
    failPolicy: dropFails,
  };
}

/** Knossos' cas-register: the register plus `cas [from to]`, legal iff the value is `from`. Failed ops never happened. */
export function casRegisterSpec(initial: Value = null): Spec<Value> {
  const register = registerSpec(initial);
  return {
    ...register,
    name: 'cas-register',
    step: (s, op) => {
      if (op.f !== 'cas') return register.step(s, op);
      const p = pair(op.input);
      return p && same(s, p[0]) ? p[1] : undefined;
    },
  };
}

/**
 * Porcupine's etcd register: starts absent (nil); a read returns exactly the
 * value, nil included; a failed cas saw a different value and changed
 * nothing; a failed read or write may or may not have happened.
 */
export function etcdSpec(initial: Value = null): Spec<Value> {
  return {
    name: 'etcd',
    init: () => initial,
    step: (s, op) => {
      if (op.f === 'write') return op.input;
      if (op.f === 'read') return same(op.output, s) ? s : undefined;
      const p = op.f === 'cas' ? pair(op.input) : undefined;
      if (p === undefined) return undefined;
      if (op.status === 'fail') return same(s, p[0]) ? undefined : s;
      return same(s, p[0]) ? p[1] : undefined;
    },
    failPolicy: (f) => (f === 'cas' ? 'observation' : 'pending'),
  };
}

/** The kv store as a plain record: every key starts "", put sets, append concatenates, get [k v] returns v (nil: unknown). */
export function kvSpec(): Spec<Readonly<Record<string, string>>> {
  return {
    name: 'kv',
    init: () => ({}),
    step: (s, op) => {
      const [key, value] = pair(op.input) ?? [op.input, null];
      const k = String(key);
      const now = s[k] ?? '';
      if (op.f === 'put') return { ...s, [k]: String(value) };
      if (op.f === 'append') return { ...s, [k]: now + String(value) };
      if (op.f !== 'get') return undefined;
      const seen = op.output === null ? null : (pair(op.output)?.[1] ?? null);
      return seen === null || seen === now ? s : undefined;
    },
    failPolicy: dropFails,
  };
}

/** Knossos' mutex: acquire iff free, release iff held; failed ops never happened. */
export function mutexSpec(): Spec<boolean> {
  return {
    name: 'mutex',
    init: () => false,
    step: (held, op) => {
      if (op.f === 'acquire') return held ? undefined : true;
      if (op.f === 'release') return held ? false : undefined;
      return undefined;
    },
    failPolicy: dropFails,
  };
}

/** The spec model for a registry model name; `initial` for the register models, as createModel's `init`. */
export function specFor(name: ModelName, initial: Value = null): Spec<unknown> {
  switch (name) {
    case 'register':
      return registerSpec(initial) as Spec<unknown>;
    case 'cas-register':
      return casRegisterSpec(initial) as Spec<unknown>;
    case 'etcd':
      return etcdSpec(initial) as Spec<unknown>;
    case 'kv':
      return kvSpec() as Spec<unknown>;
    case 'mutex':
      return mutexSpec() as Spec<unknown>;
  }
}
