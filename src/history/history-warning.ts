/**
 * Things an importer or the validator tolerates but should say: a cut last
 * line of an interrupted run, log noise skipped, a clock that stepped back.
 * They go to a callback so the library never prints; the CLI decides how.
 */

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
}
