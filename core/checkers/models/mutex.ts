/**
 * A mutex (Knossos' `mutex`): `acquire` is legal only when free, `release`
 * only when held. It does not track who holds it, as Knossos does not: a
 * history with two overlapping holders already fails on the second acquire.
 * Failed acquires and releases did not happen.
 */
import { illegal, type Model } from '../model.js';

export function mutexModel(): Model<boolean> {
  return {
    name: 'mutex',
    functions: ['acquire', 'release'],
    init: () => false,
    step(locked, op) {
      if (op.f === 'acquire') return locked ? illegal(() => 'already held') : { ok: true, state: true };
      if (op.f === 'release') return locked ? { ok: true, state: false } : illegal(() => 'not held');
      return illegal(() => `the mutex model has no operation ${JSON.stringify(op.f)}`);
    },
    hash: (s) => (s ? 1 : 0),
    equal: (a, b) => a === b,
    describeState: (s) => (s ? 'held' : 'free'),
    describeOperation: (op) => op.f,
  };
}
