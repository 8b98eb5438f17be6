/**
 * A read/write register (Knossos' `register`): `write v` sets the value;
 * `read` returns it. A read whose value is nil tells nothing and matches any
 * state (Knossos: "we don't know what the read was").
 */
import type { Value } from '../../history/op.js';
import { illegal, type Model, type StepResult } from '../model.js';
import type { Operation } from '../operation.js';
import { showValue, valueEquals, valueHash } from './value-equality.js';

export function registerModel(initial: Value = null): Model<Value> {
  return {
    name: 'register',
    functions: ['read', 'write'],
    init: () => initial,
    step: (state, op) => stepRegister(state, op) ?? unknownF(op),
    hash: valueHash,
    equal: valueEquals,
    isInert: (op) => op.f === 'read',
    isReadOnly: (op) => op.f === 'read',
    describeState: (s) => `register = ${showValue(s)}`,
    describeOperation: describeRegisterOp,
  };
}

/** The read and write steps shared by register, cas-register and etcd; undefined for any other f. */
export function stepRegister(state: Value, op: Operation): StepResult<Value> | undefined {
  if (op.f === 'write') return { ok: true, state: op.input };
  if (op.f === 'read') {
    const seen = op.output;
    if (seen === null || valueEquals(seen, state)) return { ok: true, state };
    return illegal(() => `read ${showValue(seen)}, but the register holds ${showValue(state)}`);
  }
  return undefined;
}

export function unknownF(op: Operation): StepResult<never> {
  return illegal(() => `this model has no operation ${JSON.stringify(op.f)}`);
}

export function describeRegisterOp(op: Operation): string {
  const value = op.f === 'read' ? (op.status === 'pending' ? '?' : showValue(op.output)) : showValue(op.input);
  return `${op.f} ${value}`;
}
