/**
 * BatchRunner: many lock runs one after another on one machine (compare's
 * matrix, the debate scenarios), with one policy for what goes wrong.
 *
 * Runs share the machine's address range, so there is never more than one at
 * a time, and another fencecheck process holding the cluster (a colleague's
 * run) is waited for, not interrupted: the run itself waits up to
 * `busyWaitMs` (startCluster polls the cluster lock), and the batch says so
 * first. A run whose tool failed becomes a failed attempt carrying the run
 * directory it left (RunFailedError.runDir), and the batch goes on, unless
 * its error is one every later run would hit too (the policy's fatal codes),
 * or too many runs failed in a row.
 */
import { FencecheckError } from '../../core/errors.js';
import { RunFailedError } from '../../runtime/store/run-failed-error.js';

export interface BatchPolicy {
  /** FencecheckError codes every later run would hit as well: they stop the batch. */
  fatalCodes: readonly string[];
  /** Stop after this many tool failures in a row (Infinity: never). */
  maxErrorsInARow: number;
  /** How long each run waits for another process's cluster before it fails with `cluster-busy`. */
  busyWaitMs: number;
}

/** compare: a cluster busy for 15 minutes, or three failures in a row, stop the comparison (it resumes later). */
export const COMPARE_POLICY: BatchPolicy = { fatalCodes: ['usage', 'preflight', 'cluster-busy', 'disk-full'], maxErrorsInARow: 3, busyWaitMs: 15 * 60_000 };

/** scenarios: a run that waited 30 minutes for the cluster is an error row; the others still run. */
export const SCENARIO_POLICY: BatchPolicy = {
  fatalCodes: ['usage', 'preflight', 'disk-full'],
  maxErrorsInARow: Number.POSITIVE_INFINITY,
  busyWaitMs: 30 * 60_000,
};

export type RunAttempt<T> = { ok: true; value: T } | { ok: false; error: string; runDir: string | null };

export interface BatchSay {
  /** The run's own log. */
  log: (line: string) => void;
  /** A line a person watching the batch should see. */
  notice: (line: string) => void;
}

export class BatchRunner {
  private errorsInARow = 0;

  constructor(
    readonly policy: BatchPolicy,
    private readonly clusterBusy: () => Promise<boolean>,
  ) {}

  /** One run: `start` gets how long to wait for a busy cluster; a tool failure becomes a failed attempt unless it is fatal. */
  async attempt<T>(start: (busyTimeoutMs: number) => Promise<T>, say: BatchSay): Promise<RunAttempt<T>> {
    if (await this.clusterBusy()) {
      say.notice(
        `another fencecheck process is running a cluster on this machine: waiting for it to finish (up to ${Math.round(this.policy.busyWaitMs / 60_000)} min)`,
      );
    }
    try {
      const value = await start(this.policy.busyWaitMs);
      this.errorsInARow = 0;
      return { ok: true, value };
    } catch (err) {
      const inner = err instanceof RunFailedError ? err.cause : err;
      if (inner instanceof FencecheckError && this.policy.fatalCodes.includes(inner.code)) throw inner;
      say.log(`error: ${inner instanceof Error ? (inner.stack ?? inner.message) : String(inner)}`);
      this.errorsInARow++;
      return { ok: false, error: inner instanceof Error ? inner.message : String(inner), runDir: err instanceof RunFailedError ? err.runDir : null };
    }
  }

  /** After the caller recorded a failed attempt: stop the batch when the policy's limit of failures in a row is reached. */
  stopIfFailing(lastError: string, hint: string): void {
    if (this.errorsInARow < this.policy.maxErrorsInARow) return;
    throw new FencecheckError('batch-stopped', `${this.errorsInARow} runs in a row failed to run (last: ${lastError})`, { hint });
  }
}
