/**
 * Redlock, as https://redis.io/docs/latest/develop/use/patterns/distributed-locks/
 * describes it, written by us with the clock and the nodes injected so that
 * the arithmetic can be tested on a fake clock:
 *
 * 1. Take the current time (monotonic, ms).
 * 2. Try to lock all N independent nodes with the same key and random value,
 *    each with a timeout small against the TTL (min(50 ms, TTL / 10)), so a
 *    dead node costs little.
 * 3. elapsed = now − start; validity = TTL − elapsed − drift, where
 *    drift = TTL × 0.01 + 2 ms (clock drift between processes, plus Redis's
 *    1 ms expiry precision).
 * 4. The lock is acquired iff a majority (N/2 + 1) said yes AND validity > 0.
 * 5. Otherwise unlock every node (also those that seemed not to answer: a
 *    late SET may have landed) and retry after a random delay, until the
 *    deadline.
 *
 * Step 4's validity check is what protects against a pause *during*
 * acquisition: a client stopped between sending its SETs and counting the
 * votes finds on waking that its validity is gone, and does not proceed.
 * Nothing protects against a pause *after* the decision: that is the
 * argument against Redlock that the pause scenarios show.
 */

export interface RedlockClock {
  /** Monotonic milliseconds. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

/** One node's answer to SET NX PX: locked it, held by another, an error, or no answer in time. */
export type LockVote = 'locked' | 'held' | 'error' | 'timeout';
/** One node's answer to compare-and-delete. */
export type UnlockVote = 'released' | 'not-ours' | 'error' | 'timeout';

export interface RedlockNode {
  lock(key: string, value: string, ttlMs: number, timeoutMs: number): Promise<LockVote>;
  unlock(key: string, value: string, timeoutMs: number): Promise<UnlockVote>;
}

export const CLOCK_DRIFT_FACTOR = 0.01;

export function redlockDriftMs(ttlMs: number): number {
  return ttlMs * CLOCK_DRIFT_FACTOR + 2;
}

export function redlockValidityMs(ttlMs: number, elapsedMs: number): number {
  return ttlMs - elapsedMs - redlockDriftMs(ttlMs);
}

export function quorumOf(nodes: number): number {
  return Math.floor(nodes / 2) + 1;
}

/** Per-node timeout: small against the TTL, so that a dead node does not eat the validity. */
export function nodeTimeoutMs(ttlMs: number): number {
  return Math.max(1, Math.min(50, ttlMs / 10));
}

/** The random pause between attempts: up to min(200 ms, TTL / 5), so clients that split the votes desynchronise. */
export function retryPauseMs(ttlMs: number, random: number): number {
  return Math.max(1, Math.min(200, ttlMs / 5)) * random;
}

export interface RedlockAttempt {
  votes: LockVote[];
  elapsedMs: number;
  validityMs: number;
  acquired: boolean;
}

/** Steps 1–4: one round over all nodes. */
export async function redlockAttempt(nodes: readonly RedlockNode[], key: string, value: string, ttlMs: number, clock: RedlockClock): Promise<RedlockAttempt> {
  const start = clock.now();
  const timeout = nodeTimeoutMs(ttlMs);
  const votes = await Promise.all(nodes.map((n) => n.lock(key, value, ttlMs, timeout)));
  const elapsedMs = clock.now() - start;
  const validityMs = redlockValidityMs(ttlMs, elapsedMs);
  const yes = votes.filter((v) => v === 'locked').length;
  return { votes, elapsedMs, validityMs, acquired: yes >= quorumOf(nodes.length) && validityMs > 0 };
}

export type RedlockResult =
  | { acquired: true; validityMs: number; attempts: RedlockAttempt[] }
  | { acquired: false; reason: 'held' | 'no-quorum' | 'validity-expired'; attempts: RedlockAttempt[] };

/** Why an attempt failed: a majority locked but too late; else another holder was seen; else no majority answered. */
export function failureReason(a: RedlockAttempt, nodes: number): 'held' | 'no-quorum' | 'validity-expired' {
  if (a.votes.filter((v) => v === 'locked').length >= quorumOf(nodes)) return 'validity-expired';
  return a.votes.includes('held') ? 'held' : 'no-quorum';
}

/** Unlock every node, each within the timeout; the answers, in node order. */
export function unlockAll(nodes: readonly RedlockNode[], key: string, value: string, timeoutMs: number): Promise<UnlockVote[]> {
  return Promise.all(nodes.map((n) => n.unlock(key, value, timeoutMs)));
}

/** Steps 1–5: attempts until `deadline` (on `clock`; the last one at it); the last failure's reason if none succeeds. */
export async function redlockAcquire(
  nodes: readonly RedlockNode[],
  key: string,
  value: string,
  ttlMs: number,
  clock: RedlockClock,
  deadline: number,
): Promise<RedlockResult> {
  const attempts: RedlockAttempt[] = [];
  for (;;) {
    const a = await redlockAttempt(nodes, key, value, ttlMs, clock);
    attempts.push(a);
    if (a.acquired) return { acquired: true, validityMs: a.validityMs, attempts };
    await unlockAll(nodes, key, value, nodeTimeoutMs(ttlMs));
    const remaining = deadline - clock.now();
    if (remaining <= 0) return { acquired: false, reason: failureReason(a, nodes.length), attempts };
    await clock.sleep(Math.min(retryPauseMs(ttlMs, clock.random()), remaining));
  }
}

/** Release: ok when a majority deleted our value, not-held when a majority no longer had it, else unknown. */
export function releaseVerdict(votes: readonly UnlockVote[]): 'released' | 'not-held' | 'unknown' {
  const q = quorumOf(votes.length);
  if (votes.filter((v) => v === 'released').length >= q) return 'released';
  if (votes.filter((v) => v === 'not-ours').length >= q) return 'not-held';
  return 'unknown';
}
