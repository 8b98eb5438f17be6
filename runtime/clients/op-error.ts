/**
 * How a lock client says an operation went wrong: an OpError is `fail` (it
 * definitely did not happen) or `info` (it may have happened), with a short
 * code that ends up as the history op's `error`. Every place that throws one
 * says in a comment WHY it is definite or not; anything a client does not
 * recognise is `info`, because a wrong `fail` can make a checker accept a
 * history that is in fact invalid, while a wrong `info` only costs precision.
 */

export class OpError extends Error {
  constructor(
    readonly type: 'fail' | 'info',
    readonly code: string,
    detail?: string,
    options?: { cause?: unknown },
  ) {
    super(detail ? `${code}: ${detail}` : code, options);
    this.name = 'OpError';
  }
}

/** It definitely did not happen. */
export function failed(code: string, detail?: string, cause?: unknown): OpError {
  return new OpError('fail', code, detail, cause === undefined ? undefined : { cause });
}

/** It may have happened. */
export function indeterminate(code: string, detail?: string, cause?: unknown): OpError {
  return new OpError('info', code, detail, cause === undefined ? undefined : { cause });
}

/** An error's message, whatever was thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
