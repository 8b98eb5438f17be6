/**
 * The shape of the `value` each model's operations carry, declared next to
 * the models and checked while a history is read, so a value the model cannot
 * read is a parse error at its file:line:column (254) instead of a verdict.
 *
 * Why this matters: the models read values leniently (a kv get whose value is
 * not a `[key, value]` pair reads as "value unknown"; a cas whose value is not
 * `[from, to]` is an illegal step), so without this a history in the wrong
 * shape checks "valid" or "INVALID" for reasons that have nothing to do with
 * the system that recorded it.
 *
 * A shape is checked on the invocation and, where the model reads it, on the
 * completion. Operations whose f the model does not know are left to the
 * model-mismatch check, which names every unknown f at once.
 */
import { canonicalEquals } from '../../history/canonical-value.js';
import type { CompletionCheck, ValueCheck } from '../../history/history-warning.js';
import type { Op, Value } from '../../history/op.js';

const ANY: ValueCheck = () => null;

const CAS_PAIR = 'a pair [from, to]';
const KV_PAIR = 'a pair [key, value] with a string key and a string or null value';

/** The value check of a model, by its name (every model of core/checkers/models/registry.ts). */
export function valueCheckFor(modelName: string): ValueCheck {
  switch (modelName) {
    case 'cas-register':
    case 'etcd':
      return casRegisterValues;
    case 'kv':
      return kvValues;
    // register: any JSON value may be written and read; mutex: acquire/release carry nothing the model reads.
    default:
      return ANY;
  }
}

// cas [from to] on its invocation (what the model applies); a completion echoes the pair or carries nothing.
function casRegisterValues(op: Op): string | null {
  if (op.f !== 'cas') return null;
  if (isPair(op.value)) return null;
  if (op.type !== 'invoke' && op.value === null) return null;
  return op.type === 'invoke' ? CAS_PAIR : `${CAS_PAIR} or nil`;
}

// get/put/append [key value]: the key partitions the history, the value is a string (or nil: unknown, absent).
function kvValues(op: Op): string | null {
  if (op.f !== 'get' && op.f !== 'put' && op.f !== 'append') return null;
  if (isKvPair(op.value)) return null;
  // Only an ok get's completion is read by the model; other completions may carry nothing.
  const mustBePair = op.type === 'invoke' || (op.type === 'ok' && op.f === 'get');
  if (!mustBePair && op.value === null) return null;
  return mustBePair ? KV_PAIR : `${KV_PAIR}, or nil`;
}

function isPair(v: Value): boolean {
  return Array.isArray(v) && v.length === 2;
}

function isKvPair(v: Value): boolean {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && (typeof v[1] === 'string' || v[1] === null);
}

/**
 * What a completion may not say against its invocation, by model: the model
 * reads the invocation's key and input, so a completion that names another
 * key (kv), another cas pair or another written value would be checked as if
 * it said what the invocation did. Such a history has no one meaning: bad
 * input. A completion that carries nothing (nil) contradicts nothing.
 */
export function completionCheckFor(modelName: string): CompletionCheck | undefined {
  switch (modelName) {
    case 'kv':
      return kvCompletion;
    case 'register':
    case 'cas-register':
    case 'etcd':
      return registerCompletion;
    default:
      return undefined;
  }
}

function kvCompletion(invoke: Op, complete: Op): string | null {
  if (!isKvPair(invoke.value) || !Array.isArray(complete.value) || complete.value.length !== 2) return null;
  // Indexed, not destructured: destructuring runs the iterator protocol (two objects a pair) until V8 optimises
  // this, and a fresh process checks a whole history before it does.
  const key = (invoke.value as [string, Value])[0];
  const said = (complete.value as [Value, Value])[0];
  const value = (complete.value as [Value, Value])[1];
  if (!canonicalEquals(said, key)) return `it names key ${JSON.stringify(said)}, the invocation key ${JSON.stringify(key)}`;
  // A put or append completion echoes what it wrote, if anything.
  if (invoke.f !== 'get' && value !== null && !canonicalEquals(value, (invoke.value as Value[])[1] as Value)) {
    return `it says it wrote ${JSON.stringify(value)}, the invocation writes ${JSON.stringify((invoke.value as Value[])[1])}`;
  }
  return null;
}

// A write or cas completion echoes what it wrote, or nothing; a read's completion is what it saw (no contradiction).
function registerCompletion(invoke: Op, complete: Op): string | null {
  if (invoke.f !== 'write' && invoke.f !== 'cas') return null;
  if (complete.value === null || canonicalEquals(complete.value, invoke.value)) return null;
  return `it says ${invoke.f} ${JSON.stringify(complete.value)}, the invocation ${invoke.f} ${JSON.stringify(invoke.value)}`;
}
