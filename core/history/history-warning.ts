/**
 * Things an importer or the validator tolerates but should say: a cut last
 * line of an interrupted run, log noise skipped, a clock that stepped back.
 * They go to a callback so the library never prints; the CLI decides how.
 */
import type { Op } from './op.js';

export type HistoryWarningKind = 'truncated-tail' | 'log-noise' | 'time-decreased' | 'invoke-after-info';

export interface HistoryWarning {
  kind: HistoryWarningKind;
  message: string;
  file?: string;
  /** 1-based source line, when the warning is about one line. */
  line?: number;
  /** The op's index, when the warning is about one op. */
  index?: number;
  /** How many times it happened, for warnings that summarise (log noise). */
  count?: number;
}

/** What an op's value was expected to be (a model's declaration), or null when it fits. */
export type ValueCheck = (op: Op) => string | null;

/** How a completion contradicts its invocation (a model's declaration), or null when it does not. */
export type CompletionCheck = (invoke: Op, complete: Op) => string | null;

/** Options every importer takes. */
export interface ImportOptions {
  /** Receives tolerated problems; default: ignore them. */
  onWarning?: (warning: HistoryWarning) => void;
  /**
   * JSON Lines only: skip a last line that has no newline and does not parse
   * (a run interrupted mid-write) with a `truncated-tail` warning instead of
   * failing.
   */
  tolerateTruncatedTail?: boolean;
  /** Checks each op's value as it is read; a misfit is a ParseError at the value (checkers/models/value-shapes.ts). */
  checkValue?: ValueCheck;
  /** Checks each completion against its invocation as the history is validated (checkers/models/value-shapes.ts). */
  checkCompletion?: CompletionCheck;
}
