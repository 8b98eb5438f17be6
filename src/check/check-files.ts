/**
 * The library behind `fencecheck check`: read each history file, check it
 * against the model, and return one result per file. A file that cannot be
 * read or parsed yields an `error` result instead of stopping the others.
 */
import { checkOperations } from '../../checkers/linearizability/check.js';
import type { LinearizabilityResult } from '../../checkers/linearizability/result.js';
import type { Model } from '../../checkers/model.js';
import { FencecheckError } from '../errors.js';
import type { HistoryWarning } from '../history/history-warning.js';
import type { HistoryFormat } from '../history/read-history.js';
import { readOperations } from './read-operations.js';

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
      // Paired as read: a long history's ops are never all held at once (read-operations.ts).
      const ops = readOperations(file, model, {
        ...(opts.format ? { format: opts.format } : {}),
        onWarning: (w) => warnings.push(w),
      });
      const parseMs = performance.now() - t0;
      const result = checkOperations(model, ops, {
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
