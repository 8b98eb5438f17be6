/**
 * The library behind `fencecheck check`: read each history file, check it
 * against the model, and return one result per file. A file that cannot be
 * read or parsed yields an `error` result instead of stopping the others.
 */
import { check } from '../../checkers/linearizability/check.js';
import type { LinearizabilityResult } from '../../checkers/linearizability/result.js';
import type { Model } from '../../checkers/model.js';
import { EXIT, FencecheckError } from '../errors.js';
import type { History } from '../history/op.js';
import type { HistoryWarning } from '../history/history-warning.js';
import { readHistory, type HistoryFormat } from '../history/read-history.js';

export interface FileCheck {
  file: string;
  /** Set when the file was checked. */
  result?: LinearizabilityResult;
  /** Set when the file could not be read or parsed. */
  error?: FencecheckError;
  warnings: HistoryWarning[];
  parseMs: number;
}

export interface CheckFilesOptions {
  format?: HistoryFormat;
  timeoutMs?: number;
  /** Memory ceiling of the search's tables, bytes. */
  maxCacheBytes?: number;
  /** Called after each file, for progress and streaming output. */
  onFile?: (result: FileCheck) => void;
}

export async function checkFiles(files: readonly string[], model: Model<unknown>, opts: CheckFilesOptions = {}): Promise<FileCheck[]> {
  const results: FileCheck[] = [];
  for (const file of files) {
    const warnings: HistoryWarning[] = [];
    const t0 = performance.now();
    let outcome: FileCheck;
    try {
      const history = await readHistory(file, {
        ...(opts.format ? { format: opts.format } : {}),
        onWarning: (w) => warnings.push(w),
      });
      const parseMs = performance.now() - t0;
      assertModelFits(history, model, file);
      const result = check(model, history, {
        ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
        ...(opts.maxCacheBytes !== undefined ? { maxCacheBytes: opts.maxCacheBytes } : {}),
      });
      outcome = { file, result, warnings, parseMs };
    } catch (err) {
      if (!(err instanceof FencecheckError)) throw err;
      outcome = { file, error: err, warnings, parseMs: performance.now() - t0 };
    }
    results.push(outcome);
    opts.onFile?.(outcome);
  }
  return results;
}

/** A history whose ops the model does not know was meant for another model: say so instead of "invalid". */
function assertModelFits(history: History, model: Model<unknown>, file: string): void {
  const known = new Set(model.functions);
  const foreign = new Set<string>();
  for (const op of history) if (op.process !== 'nemesis' && !known.has(op.f)) foreign.add(op.f);
  if (foreign.size === 0) return;
  throw new FencecheckError(
    'model-mismatch',
    `${file}: the history has operations ${[...foreign].map((f) => `\`${f}\``).join(', ')} that model ${model.name} does not know (it knows ${model.functions.join(', ')})`,
    { hint: 'Pick the model the history was recorded for with --model.', exitCode: EXIT.badInput },
  );
}
