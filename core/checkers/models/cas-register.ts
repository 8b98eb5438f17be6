/**
 * A compare-and-set register (Knossos' `cas-register`): read, write, and
 * `cas [from to]`, which sets `to` only if the value is `from`. The initial
 * value is configurable (nil by default). A nil read matches any state. A
 * failed cas did not happen (Knossos' convention; on the shared etcd logs it
 * gives the same verdicts as reading the failure as an observation).
 */
import type { Value } from '../../history/op.js';
import { illegal, type Model, type StepResult } from '../model.js';
import type { Operation } from '../operation.js';
import { describeRegisterOp, stepRegister, unknownF } from './register.js';
import { showValue, valueEquals, valueHash } from './value-equality.js';

export function casRegisterModel(initial: Value = null): Model<Value> {
  return {
    name: 'cas-register',
    functions: ['read', 'write', 'cas'],
    init: () => initial,
    step: (state, op) => stepRegister(state, op) ?? stepCas(state, op) ?? unknownF(op),
    hash: valueHash,
    equal: valueEquals,
    isInert: (op) => op.f === 'read',
    isReadOnly: (op) => op.f === 'read',
    describeState: (s) => `register = ${showValue(s)}`,
    describeOperation: describeCasOp,
  };
}

/** `cas [from to]` that succeeded (or may have): legal only when the register holds `from`. */
export function stepCas(state: Value, op: Operation): StepResult<Value> | undefined {
  if (op.f !== 'cas') return undefined;
  const pair = casPair(op.input);
  if (!pair) return illegal(() => `cas expects [from to], got ${showValue(op.input)}`);
  const [from, to] = pair;
  if (op.status === 'fail') {
    // The failure is an observation: the compare failed at that instant.
    if (valueEquals(state, from)) return illegal(() => `cas ${showValue(from)}→${showValue(to)} failed, but the register held ${showValue(from)}`);
    return { ok: true, state };
  }
  if (!valueEquals(state, from)) return illegal(() => `can't cas ${showValue(from)}→${showValue(to)}: the register holds ${showValue(state)}`);
  return { ok: true, state: to };
}

function casPair(v: Value): [Value, Value] | undefined {
  return Array.isArray(v) && v.length === 2 ? [v[0]!, v[1]!] : undefined;
}

export function describeCasOp(op: Operation): string {
  if (op.f !== 'cas') return describeRegisterOp(op);
  const pair = casPair(op.input);
  const text = pair ? `${showValue(pair[0])}→${showValue(pair[1])}` : showValue(op.input);
  return `cas ${text}${op.status === 'fail' ? ' (failed)' : ''}`;
}
