/**
 * readOperations: a history file straight to the operations a model checks,
 * paired as the ops are read, batch by batch. Why: holding a long history's
 * ops (a million-op etcd log is two million of them) on top of its operations
 * and the search's tables took the check past 1 GB; the ops themselves are
 * garbage as soon as they are paired.
 */
import { pairingOptions } from '../../checkers/linearizability/check.js';
import { OperationPairer } from '../../checkers/linearizability/to-operations.js';
import type { Model } from '../../checkers/model.js';
import type { Operation } from '../../checkers/operation.js';
import { EXIT, FencecheckError } from '../errors.js';
import { validatedBatches, type ReadHistoryOptions } from '../history/read-history.js';

export function readOperations(path: string, model: Model<unknown>, opts: ReadHistoryOptions = {}): Operation[] {
  const pairer = new OperationPairer(pairingOptions(model));
  const known = new Set(model.functions);
  const foreign = new Set<string>();
  for (const batch of validatedBatches(path, opts)) {
    for (const op of batch) {
      if (op.process !== 'nemesis' && !known.has(op.f)) foreign.add(op.f);
      pairer.push(op);
    }
  }
  if (foreign.size > 0) throw modelMismatch(path, model, foreign);
  return pairer.finish();
}

/** A history whose ops the model does not know was meant for another model: say so instead of "invalid". */
function modelMismatch(file: string, model: Model<unknown>, foreign: Set<string>): FencecheckError {
  return new FencecheckError(
    'model-mismatch',
    `${file}: the history has operations ${[...foreign].map((f) => `\`${f}\``).join(', ')} that model ${model.name} does not know (it knows ${model.functions.join(', ')})`,
    { hint: 'Pick the model the history was recorded for with --model.', exitCode: EXIT.badInput },
  );
}
