/**
 * readOperations: a history file straight to the operations a model checks,
 * paired as the ops are read, batch by batch, with the counts the callers'
 * input checks need (any client op at all? ops the model does not know?).
 * Why: holding a long history's ops (a million-op etcd log is two million of
 * them) on top of its operations and the search's tables took the check past
 * 1 GB; the ops themselves are garbage as soon as they are paired. What the
 * operations keep is estimated as they are paired, and a history whose
 * operations pass --max-history-mb is refused then (operations-memory.ts).
 */
import { pairingOptions } from '../../core/checkers/linearizability/check.js';
import { OperationPairer } from '../../core/checkers/linearizability/to-operations.js';
import type { Model } from '../../core/checkers/model.js';
import type { Operation } from '../../core/checkers/operation.js';
import { validatedBatches, type ReadHistoryOptions } from '../history/read-history.js';
import { readLimits } from '../../core/history/read-limits.js';
import { OperationsMemory, OPERATION_BYTES, valueBytes } from './operations-memory.js';

export interface ReadOperations {
  operations: Operation[];
  /** Ops read, nemesis included. */
  opsRead: number;
  /** Ops of client processes (not the nemesis). */
  clientOps: number;
  /** The `f`s of client ops that the model does not know. */
  foreign: Set<string>;
}

export function readOperations(path: string, model: Model<unknown>, opts: ReadHistoryOptions = {}): ReadOperations {
  // Completions were checked against their invocations as the file was validated: not again in the pairer.
  const { checkCompletion: _checked, ...pairing } = pairingOptions(model);
  const pairer = new OperationPairer(opts.validate === false ? pairingOptions(model) : pairing);
  const known = new Set(model.functions);
  const foreign = new Set<string>();
  const memory = new OperationsMemory(path, readLimits(opts.limits).maxHistoryBytes);
  let opsRead = 0;
  let clientOps = 0;
  for (const batch of validatedBatches(path, opts)) {
    opsRead += batch.length;
    // Indexed (as in the other per-op loops of a read): until V8 optimises it, `for of` over an array costs a
    // call and an object per element, and a fresh process reads a whole history first.
    for (let i = 0; i < batch.length; i++) {
      const op = batch[i]!;
      if (op.process !== 'nemesis') {
        clientOps++;
        if (!known.has(op.f)) foreign.add(op.f);
        // What the pairer keeps of it: an invocation's operation and input, an ok completion's output.
        if (op.type === 'invoke') memory.add(OPERATION_BYTES + valueBytes(op.value), op.index);
        else if (op.type === 'ok') memory.add(valueBytes(op.value), op.index);
      }
      pairer.push(op);
    }
  }
  return { operations: pairer.finish(), opsRead, clientOps, foreign };
}
