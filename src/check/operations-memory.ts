/**
 * What a history's operations cost in memory, estimated as they are paired,
 * so a history whose operations would not fit under the documented bound of a
 * check (docs/checker.md, "Limits") is refused while it is read (254), not
 * found out by V8 running out of heap.
 *
 * Why an estimate of the values and not the file's size: memory per byte of
 * file depends on what the values are. An etcd log of integers takes about
 * 3 bytes per byte of file, but small arrays cost V8 some 50 bytes each for
 * 3 bytes of text (`[0]`): a 71 MB history of them held 1.05 GB (measured,
 * docs/checker.md). The estimate follows V8's layout on 64-bit (pointer
 * compression off): an object header and 8 bytes a slot, small integers
 * inline, other numbers boxed. It errs high, never low.
 */
import type { Value } from '../../core/history/op.js';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { formatMib, LIMIT_FLAGS } from '../../core/history/read-limits.js';

/** An Operation (11 fields) with its header. */
export const OPERATION_BYTES = 120;

/** Estimated bytes `v` holds on V8's heap beyond the slot that points at it. */
export function valueBytes(v: Value | undefined): number {
  if (v === null || v === undefined || typeof v === 'boolean') return 0;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 30 ? 0 : 16;
  if (typeof v === 'string') return 24 + 2 * v.length;
  if (Array.isArray(v)) {
    let n = 48 + 8 * v.length;
    for (let i = 0; i < v.length; i++) n += valueBytes(v[i]);
    return n;
  }
  let n = 56;
  for (const k in v) n += 24 + valueBytes(v[k]);
  return n;
}

/** Adds up the estimate and refuses the history once it passes `limitBytes`. */
export class OperationsMemory {
  private bytes = 0;

  constructor(
    private readonly file: string,
    private readonly limitBytes: number,
  ) {}

  /** Count what one more held part costs (an invocation's operation and input, or a completion's output). */
  add(bytes: number, at: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limitBytes) throw this.tooLarge(at);
  }

  private tooLarge(index: number): FencecheckError {
    return new FencecheckError(
      'too-large',
      `${this.file}: its operations would take more than ${formatMib(this.limitBytes)} of memory (estimated as read; passed at op ${index})`,
      {
        hint: `Raise the limit with ${LIMIT_FLAGS.maxHistoryBytes} if the machine has the memory: a check takes about that much for the history, plus up to --max-search-mb for the search, plus some 200 MiB (docs/checker.md, "Limits").`,
        exitCode: EXIT.badInput,
      },
    );
  }
}
