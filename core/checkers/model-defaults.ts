/**
 * A model with every optional function filled in, in one place (as
 * Porcupine's `fillDefault`): the search, the pairing and the witness's words
 * call these and never test for a missing function or repeat a default.
 */
import { stringHash } from './string-hash.js';
import type { Model } from './model.js';
import type { Operation } from './operation.js';

/** Bytes a new state is assumed to keep alive when the model does not say (see Model.sizeOf). */
export const DEFAULT_STATE_BYTES = 64;

export type FilledModel<S> = Model<S> &
  Required<
    Pick<Model<S>, 'hash' | 'equal' | 'partition' | 'partitionLabel' | 'onFail' | 'isInert' | 'isReadOnly' | 'sizeOf' | 'describeState' | 'describeOperation'>
  > & {
    /** Whether the model splits histories (P-compositionality): a witness then names the part. */
    partitioned: boolean;
  };

/**
 * One filled model per model: checking many files with one model reuses the same object and the same closures,
 * so the search's optimised code keeps seeing the same functions (a fresh set per file cost a deoptimisation).
 */
const filled = new WeakMap<object, FilledModel<unknown>>();

export function withDefaults<S>(model: Model<S>): FilledModel<S> {
  if ('partitioned' in model) return model as FilledModel<S>;
  let known = filled.get(model) as FilledModel<S> | undefined;
  if (known === undefined) filled.set(model, (known = fill(model)) as FilledModel<unknown>);
  return known;
}

function fill<S>(model: Model<S>): FilledModel<S> {
  // Arrow wrappers over the model's own methods (not bind): the search calls hash and equal millions of times.
  const m = model;
  return {
    ...m,
    hash: m.hash ? (s: S) => m.hash!(s) | 0 : (s: S) => stringHash(JSON.stringify(s)),
    equal: m.equal ? (a: S, b: S) => m.equal!(a, b) : (a: S, b: S) => JSON.stringify(a) === JSON.stringify(b),
    partition: m.partition ? (ops: Operation[]) => m.partition!(ops) : (ops: Operation[]) => [ops],
    partitionLabel: m.partition && m.partitionLabel ? (op: Operation) => m.partitionLabel!(op) : () => 'all',
    // A fail completion did not happen, unless the model says it observed something.
    onFail: m.onFail ? (invoke, complete) => m.onFail!(invoke, complete) : () => 'dropped',
    isInert: m.isInert ? (op: Operation) => m.isInert!(op) : () => false,
    isReadOnly: m.isReadOnly ? (op: Operation) => m.isReadOnly!(op) : () => false,
    sizeOf: m.sizeOf ? (s: S) => m.sizeOf!(s) : () => DEFAULT_STATE_BYTES,
    describeState: m.describeState ? (s: S) => m.describeState!(s) : (s: S) => JSON.stringify(s),
    describeOperation: m.describeOperation ? (op: Operation) => m.describeOperation!(op) : (op: Operation) => `${op.f} ${JSON.stringify(op.input)}`,
    partitioned: m.partition !== undefined,
  };
}
