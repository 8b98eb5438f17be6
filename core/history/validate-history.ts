/**
 * The structural rules of a history (docs/history.md), checked op by op so a
 * streaming reader can apply them as it goes.
 *
 * Hard errors are the ones that leave the history without one meaning: an
 * index that does not increase, a completion with no open invocation of its
 * process (what did it complete?), a completion whose f differs from its
 * invocation's or that contradicts it as the model reads it (a kv completion
 * naming another key: checkers/models/value-shapes.ts), and a process invoking while its previous op is still open
 * (which invocation would the next completion belong to?).
 *
 * Tolerated, with a warning: a process invoking again after an `info` (Jepsen
 * never does, but the pairing stays unambiguous and the checker treats the
 * info op as pending, the most permissive reading), and a time smaller than
 * the previous op's (Jepsen workers stamp their ops on their own threads and
 * then take the history lock, so Knossos' etcd-bad.edn has six inversions of
 * up to 1.1 ms). The nemesis is exempt from pairing: old Jepsen recorded both
 * its invocation and its completion as `info` (etcd-bad.edn), newer Jepsen
 * records invoke/info pairs, and either way no client op depends on it.
 */
import { EXIT, FencecheckError } from '../errors.js';
import type { CompletionCheck, HistoryWarning } from './history-warning.js';
import type { History, Op, Process } from './op.js';

export type HistoryProblem = 'index-order' | 'unmatched-completion' | 'f-mismatch' | 'double-invoke' | 'contradiction';

/** A history that breaks a hard rule; names the op by its index. Exit 254. */
export class HistoryError extends FencecheckError {
  readonly problem: HistoryProblem;
  readonly index: number;
  readonly process: Process;
  readonly file: string | undefined;
  constructor(problem: HistoryProblem, op: Op, detail: string, file?: string) {
    super('history', `${file === undefined ? '' : `${file}: `}op ${op.index} (process ${op.process}, ${op.type} ${op.f}): ${detail}`, {
      hint: 'The history breaks the rules in docs/history.md; fix the recorder or converter that wrote it.',
      exitCode: EXIT.badInput,
    });
    this.problem = problem;
    this.index = op.index;
    this.process = op.process;
    this.file = file;
  }
}

export interface ValidateOptions {
  /** Named in messages. */
  file?: string;
  onWarning?: (warning: HistoryWarning) => void;
  /** A model's rule for what a completion may not say against its invocation (a key, a written value). */
  checkCompletion?: CompletionCheck;
}

/** Checks ops one at a time, in history order. */
export class HistoryValidator {
  private readonly file: string | undefined;
  private readonly warn: (w: HistoryWarning) => void;
  private readonly checkCompletion: CompletionCheck | undefined;
  private readonly open = new Map<Process, Op>();
  /** Processes whose last op ended in info. */
  private readonly crashed = new Set<Process>();
  private last: Op | undefined;

  constructor(opts: ValidateOptions = {}) {
    this.file = opts.file;
    this.warn = opts.onWarning ?? (() => {});
    this.checkCompletion = opts.checkCompletion;
  }

  /** Throws HistoryError on a hard error; reports tolerated problems to onWarning. */
  check(op: Op): void {
    const last = this.last;
    if (last !== undefined && op.index <= last.index) {
      throw new HistoryError('index-order', op, `index does not increase (the previous op has index ${last.index})`, this.file);
    }
    if (last !== undefined && op.time < last.time) {
      this.warning('time-decreased', op, `time ${op.time} is before the previous op's ${last.time} (op ${last.index})`);
    }
    this.last = op;
    if (op.process === 'nemesis') return;
    const open = this.open.get(op.process);
    if (op.type === 'invoke') {
      if (open !== undefined) {
        throw new HistoryError('double-invoke', op, `process ${op.process} invokes while its op ${open.index} is still open`, this.file);
      }
      if (this.crashed.delete(op.process)) {
        this.warning('invoke-after-info', op, `process ${op.process} invokes again after an info; its info op stays pending`);
      }
      this.open.set(op.process, op);
      return;
    }
    if (open === undefined) {
      throw new HistoryError('unmatched-completion', op, `completion with no open invocation by process ${op.process}`, this.file);
    }
    const contradiction = completionContradiction(open, op, this.checkCompletion);
    if (contradiction !== null) throw new HistoryError(contradiction.problem, op, contradiction.detail, this.file);
    this.open.delete(op.process);
    if (op.type === 'info') this.crashed.add(op.process);
  }

  private warning(kind: 'time-decreased' | 'invoke-after-info', op: Op, detail: string): void {
    const where = this.file === undefined ? '' : `${this.file}: `;
    this.warn({ kind, message: `${where}op ${op.index}: ${detail}`, index: op.index, ...(this.file === undefined ? {} : { file: this.file }) });
  }
}

/**
 * How a completion contradicts its open invocation: another f, or what the
 * model's rule refuses (another key, another written value); null if nothing.
 * Shared with the pairer (to-operations.ts), which refuses the same for
 * histories given to the checker without reading them from a file.
 */
export function completionContradiction(invoke: Op, complete: Op, check?: CompletionCheck): { problem: HistoryProblem; detail: string } | null {
  if (invoke.f !== complete.f) return { problem: 'f-mismatch', detail: `completes op ${invoke.index}, which invoked ${invoke.f}, with f ${complete.f}` };
  const why = check?.(invoke, complete) ?? null;
  return why === null ? null : { problem: 'contradiction', detail: `contradicts its invocation, op ${invoke.index}: ${why}` };
}

/** Check a whole history: throws HistoryError on a hard error, returns (and reports) the tolerated problems. */
export function validateHistory(history: History, opts: ValidateOptions = {}): HistoryWarning[] {
  const warnings: HistoryWarning[] = [];
  const validator = new HistoryValidator({
    ...opts,
    onWarning: (w) => {
      warnings.push(w);
      opts.onWarning?.(w);
    },
  });
  for (const op of history) validator.check(op);
  return warnings;
}
