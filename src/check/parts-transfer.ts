/**
 * Parts of a history as they cross to a worker thread: the numbers of every
 * operation in one Float64Array (transferred, not copied), and its process,
 * f, input and output in one JSON string.
 *
 * Why not a structured clone of the Operation objects: it cost 430 ms for
 * 100,000 kv operations, more than searching them; this costs 65 ms to
 * encode and about as much to decode, in the worker. JSON is exact here: a
 * history's values are JSON values by construction (the readers refuse a
 * number beyond the double range, and read EDN's ##Inf and ##NaN as strings),
 * so there is no non-finite number for JSON to turn into null.
 */
import type { Operation, OperationStatus } from '../../core/checkers/operation.js';

export interface EncodedParts {
  /** Ops per part. */
  sizes: number[];
  /** Per op: id, call, ret, invokeIndex, completeIndex (-1: none), status (index into STATUSES). */
  numbers: Float64Array;
  /** Per op: [process, f, input, output]. */
  json: string;
}

const FIELDS = 6;
const STATUSES: readonly OperationStatus[] = ['ok', 'fail', 'pending'];

export function encodeParts(parts: readonly (readonly Operation[])[]): EncodedParts {
  const count = parts.reduce((n, p) => n + p.length, 0);
  const numbers = new Float64Array(count * FIELDS);
  const rest: unknown[] = [];
  let at = 0;
  for (const part of parts) {
    for (const op of part) {
      numbers[at++] = op.id;
      numbers[at++] = op.call;
      numbers[at++] = op.ret;
      numbers[at++] = op.invokeIndex;
      numbers[at++] = op.completeIndex ?? -1;
      numbers[at++] = STATUSES.indexOf(op.status);
      rest.push([op.process, op.f, op.input, op.output]);
    }
  }
  return { sizes: parts.map((p) => p.length), numbers, json: JSON.stringify(rest) };
}

export function decodeParts(encoded: EncodedParts): Operation[][] {
  const rest = JSON.parse(encoded.json) as [Operation['process'], string, Operation['input'], Operation['output']][];
  const n = encoded.numbers;
  let i = 0;
  return encoded.sizes.map((size) => {
    const part: Operation[] = new Array(size);
    for (let k = 0; k < size; k++, i++) {
      const [process, f, input, output] = rest[i]!;
      const at = i * FIELDS;
      const completeIndex = n[at + 4]!;
      part[k] = {
        id: n[at]!,
        process,
        f,
        input,
        output,
        status: STATUSES[n[at + 5]!]!,
        call: n[at + 1]!,
        ret: n[at + 2]!,
        invokeIndex: n[at + 3]!,
        completeIndex: completeIndex === -1 ? null : completeIndex,
      };
    }
    return part;
  });
}
