import { describe, expect, it } from 'vitest';
import {
  failureReason,
  nodeTimeoutMs,
  quorumOf,
  redlockAcquire,
  redlockAttempt,
  redlockDriftMs,
  redlockValidityMs,
  releaseVerdict,
  type LockVote,
  type RedlockClock,
  type RedlockNode,
  type UnlockVote,
} from '../../runtime/clients/redlock-algorithm.js';

/** A fake monotonic clock: sleeping advances it, random is fixed. */
class FakeClock implements RedlockClock {
  t = 0;
  now(): number {
    return this.t;
  }
  async sleep(ms: number): Promise<void> {
    this.t += ms;
  }
  random(): number {
    return 0.5;
  }
}

/**
 * A node whose lock answers `votes` in turn (the last one repeats), taking
 * `latencyMs` of fake time (parallel calls: the clock ends at start + the
 * slowest latency), and that records the timeouts and unlocks it got.
 */
function fakeNode(clock: FakeClock, votes: LockVote[], latencyMs = 0): RedlockNode & { timeouts: number[]; unlocks: number } {
  let i = 0;
  const node = {
    timeouts: [] as number[],
    unlocks: 0,
    async lock(_key: string, _value: string, _ttl: number, timeoutMs: number): Promise<LockVote> {
      node.timeouts.push(timeoutMs);
      const start = clock.t;
      await Promise.resolve();
      clock.t = Math.max(clock.t, start + latencyMs);
      return votes[Math.min(i++, votes.length - 1)]!;
    },
    async unlock(): Promise<UnlockVote> {
      node.unlocks++;
      return 'released';
    },
  };
  return node;
}

function fiveNodes(clock: FakeClock, votes: LockVote[][], latencies: number[] = []): ReturnType<typeof fakeNode>[] {
  return votes.map((v, i) => fakeNode(clock, v, latencies[i] ?? 0));
}

describe('Redlock arithmetic', () => {
  it('drift is TTL × 0.01 + 2 ms, validity is TTL − elapsed − drift', () => {
    expect(redlockDriftMs(10_000)).toBe(102);
    expect(redlockDriftMs(1000)).toBe(12);
    expect(redlockValidityMs(1000, 100)).toBe(888);
    expect(redlockValidityMs(1000, 988)).toBe(0);
  });

  it('quorum is a majority, per-node timeouts are small against the TTL', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(quorumOf)).toEqual([1, 2, 2, 3, 3, 4, 4]);
    expect(nodeTimeoutMs(10_000)).toBe(50);
    expect(nodeTimeoutMs(300)).toBe(30);
    expect(nodeTimeoutMs(5)).toBe(1);
  });
});

describe('redlockAttempt on a fake clock', () => {
  it('a majority within the TTL acquires; validity counts the slowest node', async () => {
    const clock = new FakeClock();
    const nodes = fiveNodes(clock, [['locked'], ['locked'], ['locked'], ['held'], ['timeout']], [10, 20, 30, 40, 50]);
    const a = await redlockAttempt(nodes, 'L', 'v', 1000, clock);
    expect(a).toEqual({ votes: ['locked', 'locked', 'locked', 'held', 'timeout'], elapsedMs: 50, validityMs: 1000 - 50 - 12, acquired: true });
    expect(nodes.every((n) => n.timeouts[0] === 50)).toBe(true);
  });

  it('two of five is no quorum', async () => {
    const clock = new FakeClock();
    const a = await redlockAttempt(fiveNodes(clock, [['locked'], ['locked'], ['held'], ['error'], ['timeout']]), 'L', 'v', 1000, clock);
    expect(a.acquired).toBe(false);
    expect(failureReason(a, 5)).toBe('held');
  });

  it('a majority that took longer than TTL − drift is refused (validity ≤ 0)', async () => {
    const clock = new FakeClock();
    const a = await redlockAttempt(fiveNodes(clock, [['locked'], ['locked'], ['locked'], ['locked'], ['locked']], [988]), 'L', 'v', 1000, clock);
    expect(a.validityMs).toBe(0);
    expect(a.acquired).toBe(false);
    expect(failureReason(a, 5)).toBe('validity-expired');
  });
});

describe('redlockAcquire on a fake clock', () => {
  it('a pause during acquisition (between the SETs and the count) makes the client refuse the lock and unlock all', async () => {
    const clock = new FakeClock();
    // Every node says yes, but the process was stopped for 5 s before it could count the votes.
    const nodes = fiveNodes(clock, [['locked'], ['locked'], ['locked'], ['locked'], ['locked']], [0, 5000]);
    const r = await redlockAcquire(nodes, 'L', 'v', 2000, clock, 1);
    expect(r.acquired).toBe(false);
    expect(r.acquired === false && r.reason).toBe('validity-expired');
    expect(r.attempts[0]!.validityMs).toBe(2000 - 5000 - 22);
    expect(nodes.map((n) => n.unlocks)).toEqual([1, 1, 1, 1, 1]);
  });

  it('retries after a random pause until the deadline, unlocking all nodes after each failed attempt', async () => {
    const clock = new FakeClock();
    const nodes = fiveNodes(clock, [['held'], ['held'], ['held'], ['locked'], ['locked']]);
    // TTL 1000: pauses of min(200, TTL/5) × 0.5 = 100 ms; attempts at 0, 100, 200, 300, and a last one at the deadline.
    const r = await redlockAcquire(nodes, 'L', 'v', 1000, clock, 350);
    expect(r.acquired).toBe(false);
    expect(r.attempts).toHaveLength(5);
    expect(r.acquired === false && r.reason).toBe('held');
    expect(nodes.map((n) => n.unlocks)).toEqual([5, 5, 5, 5, 5]);
    expect(clock.t).toBe(350);
  });

  it('succeeds on a later attempt once the holder is gone, with that attempt validity', async () => {
    const clock = new FakeClock();
    const nodes = fiveNodes(clock, [['held', 'locked'], ['held', 'locked'], ['held', 'locked'], ['locked'], ['locked']], [5, 5, 5, 5, 5]);
    const r = await redlockAcquire(nodes, 'L', 'v', 1000, clock, 10_000);
    expect(r.acquired).toBe(true);
    expect(r.attempts).toHaveLength(2);
    expect(r.acquired && r.validityMs).toBe(1000 - 5 - 12);
    // Only the failed first attempt unlocked.
    expect(nodes.map((n) => n.unlocks)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('releaseVerdict', () => {
  it.each<[UnlockVote[], ReturnType<typeof releaseVerdict>]>([
    [['released', 'released', 'released', 'not-ours', 'timeout'], 'released'],
    [['released', 'released', 'not-ours', 'not-ours', 'not-ours'], 'not-held'],
    [['released', 'released', 'not-ours', 'not-ours', 'timeout'], 'unknown'],
    [['error', 'error', 'error', 'released', 'released'], 'unknown'],
  ])('%j → %s', (votes, verdict) => {
    expect(releaseVerdict(votes)).toBe(verdict);
  });
});
