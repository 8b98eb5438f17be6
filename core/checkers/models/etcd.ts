/**
 * The register of the shared etcd logs (Porcupine's etcd model): the key
 * starts absent (nil); a read returns the value or nil when absent (so a nil
 * read is exact, not a wildcard); a failed cas is an observation that the
 * compare failed at some instant within its interval; a read or write that
 * failed (timed out) may or may not have happened.
 */
import type { Value } from '../../history/op.js';
import { illegal, type Model } from '../model.js';
import { describeCasOp, stepCas } from './cas-register.js';
import { unknownF } from './register.js';
import { showValue, valueEquals, valueHash } from './value-equality.js';

export function etcdModel(initial: Value = null): Model<Value> {
  return {
    name: 'etcd',
    functions: ['read', 'write', 'cas'],
    init: () => initial,
    step(state, op) {
      if (op.f === 'write') return { ok: true, state: op.input };
      if (op.f === 'read') {
        if (valueEquals(op.output, state)) return { ok: true, state };
        return illegal(() => `read ${showValue(op.output)}, but the key holds ${showValue(state)}`);
      }
      return stepCas(state, op) ?? unknownF(op);
    },
    hash: valueHash,
    equal: valueEquals,
    onFail: (invoke) => (invoke.f === 'cas' ? 'observation' : 'pending'),
    isInert: (op) => op.f === 'read',
    isReadOnly: (op) => op.f === 'read' || (op.f === 'cas' && op.status === 'fail'),
    describeState: (s) => `key = ${showValue(s)}`,
    describeOperation: describeCasOp,
  };
}
