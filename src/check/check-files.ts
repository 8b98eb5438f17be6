/**
 * The library behind `fencecheck check`: read each history file, check it
 * against the model, and return one result per file. A file that cannot be
 * read or parsed yields an `error` result instead of stopping the others.
 */
import { checkOperations } from '../../core/checkers/linearizability/check.js';
import type { CheckOptions, LinearizabilityResult } from '../../core/checkers/linearizability/result.js';
import type { Model } from '../../core/checkers/model.js';
import { EXIT, FencecheckError } from '../../core/errors.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import { HISTORY_FORMATS, type HistoryFormat } from '../history/read-history.js';
import type { ReadLimits } from '../../core/history/read-limits.js';
import { completionCheckFor, valueCheckFor } from '../../core/checkers/models/value-shapes.js';
import { readOperations, type ReadOperations } from './read-operations.js';

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
  /** Bounds on each file's size and line length. */
  limits?: Partial<ReadLimits>;
  /** JSON Lines: skip a cut last line (an interrupted run) with a warning. */
  tolerateTruncatedTail?: boolean;
  timeoutMs?: number;
  /** Memory ceiling of the search's tables, bytes. */
  maxCacheBytes?: number;
  /** Called after each file, for progress and streaming output. */
  onFile?: (result: FileCheck) => void;
}

export async function checkFiles(files: readonly string[], model: Model<unknown>, opts: CheckFilesOptions = {}): Promise<FileCheck[]> {
  const results: FileCheck[] = [];
  for (const file of files) {
    const outcome = checkFile(file, model, opts);
    results.push(outcome);
    opts.onFile?.(outcome);
  }
  return results;
}

/** One file: read, pair and check it; a file that cannot be read or parsed gives an `error` result. */
export function checkFile(file: string, model: Model<unknown>, opts: CheckFilesOptions = {}): FileCheck {
  const warnings: HistoryWarning[] = [];
  const t0 = performance.now();
  try {
    const read = readChecked(file, model, opts, warnings);
    const parseMs = performance.now() - t0;
    const result = checkOperations(model, read.operations, searchOptionsOf(opts));
    return { file, result, warnings, parseMs };
  } catch (err) {
    if (!(err instanceof FencecheckError)) throw err;
    return { file, error: err, warnings, parseMs: performance.now() - t0 };
  }
}

/** The search's own options among a check's. */
export function searchOptionsOf(opts: CheckFilesOptions): CheckOptions {
  return {
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.maxCacheBytes !== undefined ? { maxCacheBytes: opts.maxCacheBytes } : {}),
  };
}

/**
 * Read and pair a file (paired as read: a long history's ops are never all held at once, read-operations.ts),
 * refusing input that has nothing to check or was meant for another model.
 */
export function readChecked(file: string, model: Model<unknown>, opts: CheckFilesOptions, warnings: HistoryWarning[]): ReadOperations {
  let format: HistoryFormat | undefined = opts.format;
  const read = readOperations(file, model, {
    ...(opts.format ? { format: opts.format } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
    ...(opts.tolerateTruncatedTail ? { tolerateTruncatedTail: true } : {}),
    checkValue: valueCheckFor(model.name),
    checkCompletion: completionCheckFor(model.name),
    onFormat: (f) => (format = f),
    onWarning: (w) => warnings.push(w),
  });
  assertSomeOps(read, file, format ?? 'jsonl', opts.format !== undefined);
  assertModelFits(read, model, file);
  return read;
}

/**
 * A history with no client operation is bad input, not a valid history: a
 * checker that reads nothing must not say "valid" (an empty file, a file of
 * another format whose lines were all skipped).
 */
function assertSomeOps(read: ReadOperations, file: string, format: HistoryFormat, forced: boolean): void {
  if (read.clientOps > 0) return;
  const what = read.opsRead === 0 ? 'no operations' : 'only nemesis operations';
  throw new FencecheckError('empty-history', `${file}: read as ${format}${forced ? ' (as --format said)' : ''}, it has ${what}: there is nothing to check`, {
    hint: `If the file is another format, pass --format with one of ${HISTORY_FORMATS.join(', ')}; an empty history has no verdict.`,
    exitCode: EXIT.badInput,
  });
}

/** A history whose ops the model does not know was meant for another model: say so instead of "invalid". */
function assertModelFits(read: ReadOperations, model: Model<unknown>, file: string): void {
  const foreign = read.foreign;
  if (foreign.size === 0) return;
  throw new FencecheckError(
    'model-mismatch',
    `${file}: the history has operations ${[...foreign].map((f) => `\`${f}\``).join(', ')} that model ${model.name} does not know (it knows ${model.functions.join(', ')})`,
    { hint: 'Pick the model the history was recorded for with --model.', exitCode: EXIT.badInput },
  );
}
