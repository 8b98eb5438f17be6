/**
 * How a queue run failed (pure), read from total-queue's counts: jobs whose
 * effect landed twice, jobs lost, increments lost, effects of jobs never
 * enqueued. A re-run of a failing queue plan (a hunt confirming its find, a
 * shrink trying a candidate) fails the same way only with each sign the
 * original showed: a shrink of a duplicated job must not end on a loss that
 * a server kill without persistence gives every time, and tell the wrong story.
 */

/** Each sign and total-queue's count it reads. */
const SIGN_COUNTS = {
  duplicated: 'duplicated',
  lost: 'lost',
  'lost-increments': 'lostIncrements',
  unexpected: 'unexpected',
} as const;

export type QueueFailureSign = keyof typeof SIGN_COUNTS;

/** What a run's results hold that the signs need: its outcome and its checkers' counts. */
export interface QueueRunVerdict {
  outcome?: string | undefined;
  /** Each checker's name and counts (a stored results.json's counts are JSON values: only numbers are read). */
  checkers: readonly { checker: string; stats?: { readonly [key: string]: unknown } | undefined }[];
}

/** The signs a run's total-queue counts show (none when the checker did not count). */
export function queueFailureSigns(results: QueueRunVerdict): QueueFailureSign[] {
  const stats = results.checkers.find((c) => c.checker === 'total-queue')?.stats ?? {};
  return (Object.keys(SIGN_COUNTS) as QueueFailureSign[]).filter((s) => {
    const n = stats[SIGN_COUNTS[s]];
    return typeof n === 'number' && n > 0;
  });
}

/** Whether a re-run failed as the original did: unsafe, with each of the original's signs. */
export function failsLikeQueueOriginal(results: QueueRunVerdict, signs: readonly QueueFailureSign[]): boolean {
  if (results.outcome !== 'unsafe') return false;
  const shown = queueFailureSigns(results);
  return signs.every((s) => shown.includes(s));
}

/** `3 jobs done twice, 1 lost`: a failing run's counts as a line says them. */
export function describeQueueFailure(results: QueueRunVerdict): string {
  const stats = results.checkers.find((c) => c.checker === 'total-queue')?.stats ?? {};
  const n = (k: string): number => {
    const v = stats[k];
    return typeof v === 'number' ? v : 0;
  };
  const parts = [
    `${n('duplicated')} of ${n('done')} jobs done twice or more`,
    ...(n('lost') > 0 ? [`${n('lost')} lost`] : []),
    ...(n('lostIncrements') > 0 ? [`${n('lostIncrements')} lost increment(s)`] : []),
    ...(n('unexpected') > 0 ? [`${n('unexpected')} unexpected`] : []),
    `${n('redelivered')} handed out twice or more, ${n('wasted')} effect(s) refused`,
  ];
  return parts.join(', ');
}
