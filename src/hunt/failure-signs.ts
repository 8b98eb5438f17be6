/**
 * The signs of *how* the lock failed that a near miss records (near-miss.ts):
 * a grant handed out with no validity left, an acknowledged grant a failover
 * lost, tokens going backwards, a waiter told it holds after sleeping past
 * its lease, two holders both within their validity, a release that removed
 * another holder's lock. A re-run of a failing plan (the hunt confirming a
 * find, the shrink trying a candidate) fails the same way only with each sign
 * the original showed: else a shrink of npm redlock's expired grant could end
 * on a delayed write, a failure every lease has, and tell the wrong story.
 */
import type { NearMiss } from './near-miss.js';

export const FAILURE_SIGNS = [
  'expiredGrants',
  'lostGrants',
  'tokenRegressions',
  'sleptGrants',
  'validDoubleHolds',
  'foreignReleases',
] as const satisfies readonly (keyof NearMiss)[];

export type FailureSign = (typeof FAILURE_SIGNS)[number];

export function failureSigns(miss: NearMiss | null): FailureSign[] {
  return miss === null ? [] : FAILURE_SIGNS.filter((k) => (miss[k] ?? 0) > 0);
}

/** Whether a re-run's outcome and near miss fail the way the original did (a violation, with each of its signs). */
export function failsLikeOriginal(outcome: string, miss: NearMiss | null, signs: readonly FailureSign[]): boolean {
  return outcome === 'unsafe' && signs.every((k) => (miss?.[k] ?? 0) > 0);
}
