/**
 * A model: a small object of pure functions that says which sequences of
 * operations a correct single-copy system allows (Knossos' models, Porcupine's
 * `Model`). The linearizability search only ever calls these.
 */
import type { Op } from '../history/op.js';
import type { Operation } from './operation.js';

/**
 * The outcome of one step. The reason is a thunk because the search calls step
 * millions of times and uses a reason only for the witness: formatting it
 * eagerly (a long kv value, say) was most of the cost of the search.
 */
export type StepResult<S> = { ok: true; state: S } | { ok: false; reason: () => string };

/** An illegal step with its (lazily formatted) reason. */
export function illegal(reason: () => string): { ok: false; reason: () => string } {
  return { ok: false, reason };
}

/** How a `fail` completion is read: did not happen, an observation to check, or unknown. */
export type FailPolicy = 'dropped' | 'observation' | 'pending';

export interface Model<S> {
  name: string;
  /** The operation functions (`f`) the model knows; a history with others was meant for another model. */
  functions: readonly string[];
  /** The initial state. */
  init(): S;
  /** Apply `op` to `state`: the next state, or why the operation is illegal there. Must not mutate `state`. */
  step(state: S, op: Operation): StepResult<S>;
  /** Hash of a state; equal states must hash equally. Default: a hash of JSON.stringify. */
  hash?(state: S): number;
  /** State equality. Default: JSON.stringify equality. */
  equal?(a: S, b: S): boolean;
  /**
   * Split operations into independent sub-histories (P-compositionality,
   * Horn & Kroening): the history is linearizable iff each part is. Parts
   * must come back in a deterministic order so witnesses are stable.
   */
  partition?(ops: Operation[]): Operation[][];
  /** A label for the part an operation belongs to (e.g. `key 6`), for witnesses. */
  partitionLabel?(op: Operation): string;
  /**
   * How a `fail` completion is read. Default 'dropped' (it did not happen).
   * 'observation': it happened and its failure is a result to check (etcd's failed cas).
   * 'pending': we do not know (a timed-out write reported as fail).
   */
  onFail?(invoke: Op, complete: Op): FailPolicy;
  /**
   * A pending operation that cannot constrain any linearization (a read whose
   * result never arrived) is dropped before the search: it may always be
   * linearized as a no-op, or not at all.
   */
  isInert?(op: Operation): boolean;
  /**
   * An operation that never changes the state, in any state where it is legal
   * (a read; etcd's failed cas). The search linearizes such an op as soon as it
   * is reachable and legal, and tries no alternative: a large pruning on
   * read-heavy histories. Claiming it for an op that can change the state is a
   * soundness bug, so say it only when it is always true.
   */
  isReadOnly?(op: Operation): boolean;
  /**
   * Roughly how many bytes a new state keeps alive (beyond what it shares with
   * the state it came from). The search counts interned states against its
   * memory ceiling; without it, a state costs 64 bytes.
   */
  sizeOf?(state: S): number;
  describeState?(state: S): string;
  describeOperation?(op: Operation): string;
  /**
   * Lookahead for one part's ops (`ops`, in the search's order): a test that
   * the state just reached by linearizing `ops[op]` can no longer satisfy some
   * completed op not yet linearized (a kv get whose value no later value of
   * the key can equal). The test returns that op's index, or -1. The search
   * treats such a step as illegal, so it never explores a subtree that cannot
   * succeed, and a witness names the op ruled out. Sound only if an answer
   * other than -1 is a proof: that op can be linearized after no sequence of
   * the remaining ops (say -1 when unsure).
   */
  deadEnds?(ops: readonly Operation[]): DeadEndTest<S> | undefined;
  /**
   * A guess at one part's linearization (indexes into `ops`, the part in the
   * search's order), tried before the part is searched. The guess is checked
   * against the definition (linearizability/proven-order.ts): when it is a
   * linearization, the part is valid with no search; otherwise the search runs
   * as if there were no guess. So a guess needs no proof of its own: a wrong
   * one costs its time, never a verdict. Return undefined when there is none.
   */
  orderHint?(ops: readonly Operation[]): readonly number[] | undefined;
  /**
   * Independent parts inside one state, for a model that does not partition
   * (kv with `partition: false`): every op reads and changes one part only,
   * and whether it is legal depends on that part alone. The search then
   * learns each failure as a failure of one part and jumps back past the
   * choices in other parts (keyed-wgl.ts). Sound only if it is always true.
   */
  parts?: StateParts<S>;
}

/** A state's independent parts (see Model.parts): which part an op touches, and a part's state, hash and equality. */
export interface StateParts<S, P = unknown> {
  partOf(op: Operation): string;
  part(state: S, name: string): P;
  hash(part: P): number;
  equal(a: P, b: P): boolean;
}

/**
 * `linearized`: the search's bitset of linearized ops (bit i of word i >> 5),
 * `ops[op]` already set in it; words below `lo` are all ones (those ops are
 * all linearized). Returns the index of an op ruled out, or -1.
 */
export type DeadEndTest<S> = (state: S, op: number, linearized: Uint32Array, lo: number) => number;
