/**
 * The scenarios about the client side of a lock: a holder paused past its
 * TTL (S1), a write or a mark delayed on its way to the resource (S2, S2b),
 * and what the resource can do about it: a unique token's check-and-set or a
 * monotonic fence (S6), per write or on every access (S6b).
 *
 * Timings (TTL 1 s, hold 300 ms): a pause of 3 s outlives the TTL of every
 * backend (etcd raises a 1 s lease to its 2 s minimum). A delayed request is
 * held 1.5 s by the proxy on the client's link, past the TTL; the window that
 * slows the link stays open for less than that, so the answer comes back at
 * once and only the request is late. The call timeout is 4 s in the delay
 * scenarios so that the late statement completes `ok`: a write the client
 * gave up on would be indeterminate, and indeterminate writes never decide.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { delays, pauses } from './fault-script.js';
import type { Scenario, ScenarioVariant, VariantOptions } from './scenario.js';

/** S1: the holder paused 3 s, three times (a window that finds nobody holding is skipped). */
export const PAUSE_SCRIPT: FaultWindow[] = pauses([1500, 5000, 8500], 3000);

/** S2: the holder's resource link slowed by 1.5 s while it holds, three times. */
export const WRITE_DELAY_SCRIPT: FaultWindow[] = delays([2000, 5000, 8000], 600, 1500, 'resource', { kind: 'holder' });

/** S2b: the resource link of a client waiting for the lock slowed by 1.5 s, so its first access (the mark) is late. */
export const MARK_DELAY_SCRIPT: FaultWindow[] = delays([2000, 5000, 8000], 800, 1500, 'resource', { kind: 'acquirer' });

/** S6b: the holder's write slowed by 0.9 s: it lands after the lock passed on, between the new holder's read and write. */
export const SHORT_WRITE_DELAY_SCRIPT: FaultWindow[] = delays([2000, 5000, 8000], 600, 900, 'resource', { kind: 'holder' });

const DELAYED = { proxies: 'resource', callTimeoutMs: 4000 } as const;

function variant(label: string, text: string, options: VariantOptions, expected?: ScenarioVariant['expected']): ScenarioVariant {
  return expected === undefined ? { label, text, options } : { label, text, options, expected };
}

const UNFENCED: ScenarioVariant['expected'] = {
  lock: 'unsafe',
  data: 'unsafe',
  why: "the lease expires during the pause, another client acquires, and nothing stops the paused client's write",
};
const FENCED: ScenarioVariant['expected'] = {
  lock: 'unsafe',
  data: 'safe',
  why: 'the lock is still held twice, but the resource rejects the write of the older token',
};

export const S1: Scenario = {
  id: 'S1',
  title: 'A client pauses after acquiring, longer than the TTL',
  claim:
    'A client that stops (a stop-the-world GC, a SIGSTOP) after acquiring, for longer than the lease, wakes up believing it still holds the lock and writes. A lease alone cannot protect the data; the resource must check a fencing token.',
  predictions: {
    kleppmann:
      "Unsafe without fencing, whatever the lock service: the lease expires, another client acquires, the paused client's write clobbers it. With a monotonic fencing token checked by the resource the stale write is rejected. Redlock cannot fence: it has no monotonic token.",
    antirez:
      "True of every lock with automatic release (ZooKeeper, etcd), not a Redlock flaw. Where the resource can check a token, Redlock's unique token serves for check-and-set (S6).",
  },
  setup:
    "lock-counter, 2 clients, TTL 1 s, hold 300 ms. The current holder (one in its hold when there is one) is paused for 3 s at 1.5, 5 and 8.5 s, longer than any backend's lease (etcd raises a 1 s lease to its 2 s minimum); a window that finds nobody holding is skipped, hence three. Resource none vs fence (write fenced by the token); Redlock has no monotonic token, so its fence variant does not apply.",
  recipe:
    "to see a paused holder's write clobber the next holder's on every lock service, and a fencing token stop it, run `sudo npx fencecheck scenario run S1`",
  variants: [
    variant('redis-none', 'single Redis, no fence', { backend: 'redis', resource: 'none', script: PAUSE_SCRIPT }, UNFENCED),
    variant('redis-fence', 'single Redis, INCR token fenced at the resource', { backend: 'redis', resource: 'fence', script: PAUSE_SCRIPT }, FENCED),
    variant('redlock-none', 'Redlock (our implementation), no fence', { backend: 'redlock', resource: 'none', script: PAUSE_SCRIPT }, UNFENCED),
    variant('redlock-fence', 'Redlock with a fence', { backend: 'redlock', resource: 'fence', script: PAUSE_SCRIPT }),
    variant('etcd-none', 'etcd lease + txn, no fence', { backend: 'etcd', resource: 'none', script: PAUSE_SCRIPT }, UNFENCED),
    variant('etcd-fence', 'etcd, create_revision fenced', { backend: 'etcd', resource: 'fence', script: PAUSE_SCRIPT }, FENCED),
    variant('zookeeper-none', 'ZooKeeper ephemeral-sequential recipe, no fence', { backend: 'zookeeper', resource: 'none', script: PAUSE_SCRIPT }, UNFENCED),
    variant('zookeeper-fence', 'ZooKeeper, czxid fenced', { backend: 'zookeeper', resource: 'fence', script: PAUSE_SCRIPT }, FENCED),
  ],
};

export const S2: Scenario = {
  id: 'S2',
  title: 'A write to the resource is delayed past the TTL',
  claim:
    "A holder's write can sit in the network for longer than the lease and reach the resource after the lock has passed on. Bounded network delay is a timing assumption that real networks break.",
  predictions: {
    kleppmann: "Unsafe without fencing: the late write lands after the next holder's and overwrites it. A fencing token makes the resource reject it.",
    antirez:
      'A delay after the lock is acquired is the same problem as a pause and hits every auto-release lock alike; where the resource can check a token, it can reject the write.',
  },
  setup:
    "lock-counter, 2 clients, TTL 1 s, hold 300 ms, call timeout 4 s. A delay proxy sits on each client's link to PostgreSQL (delay 0); at 2, 5 and 8 s the current holder's link is slowed by 1.5 s for 600 ms, so the write it sends at the end of its hold reaches PostgreSQL 1.5 s later, after its 1 s lease, when the next holder has read and written.",
  recipe: 'to see a write delayed in the network land after the lock passed on (and a fence reject it), run `sudo npx fencecheck scenario run S2`',
  variants: [
    variant(
      'redis-none',
      'single Redis, no fence',
      { backend: 'redis', resource: 'none', script: WRITE_DELAY_SCRIPT, ...DELAYED },
      { lock: 'unsafe', data: 'unsafe', why: "the late write overwrites the next holder's increment" },
    ),
    variant(
      'redis-fence',
      'single Redis, write fenced by the token',
      { backend: 'redis', resource: 'fence', script: WRITE_DELAY_SCRIPT, ...DELAYED },
      { lock: 'unsafe', data: 'safe', why: "the next holder's write raised the fence before the late write arrived" },
    ),
  ],
};

export const S2B: Scenario = {
  id: 'S2b',
  title: "The holder's mark is delayed and lands after the new holder's",
  claim:
    "With a unique (random) token, the resource can only compare for equality: a stale holder's mark that arrives after the new holder's takes the resource back, and the stale holder's check-and-set write then succeeds. Only an ordered token lets the resource tell old from new.",
  predictions: {
    kleppmann:
      "Unsafe with unique tokens: the resource cannot know the late mark is older, so the stale holder writes under the new holder's lock. A monotonic token (fence-claim: the first access claims the resource with the token) rejects the late claim.",
    antirez:
      "With check-and-set on Redlock's unique token the resource accepts a write only while it still carries the writer's token, which he argues is as good as a monotonic fence.",
  },
  setup:
    "lock-counter, 2 clients, TTL 1 s, hold 300 ms, call timeout 4 s, a delay proxy on each client's link to PostgreSQL. At 2, 5 and 8 s the link of a client whose acquire is in flight (waiting for the lock) is slowed by 1.5 s for 800 ms: its first access after the grant (the mark, in fence-claim the claiming read) arrives 1.5 s late, after its lease expired and the next holder marked. Both variants on single Redis, whose INCR token is both unique and ordered, so only the resource's check differs.",
  recipe:
    'to see a unique-token check-and-set let a stale holder write after its late mark (and a monotonic fence refuse it), run `sudo npx fencecheck scenario run S2b`',
  variants: [
    variant('redis-cas-unique', 'mark with the token, write iff the mark is still ours (one atomic statement)', {
      backend: 'redis',
      resource: 'cas-unique',
      script: MARK_DELAY_SCRIPT,
      ...DELAYED,
    }),
    variant(
      'redis-fence-claim',
      'claim with the token (fence <= token), write fenced',
      { backend: 'redis', resource: 'fence-claim', script: MARK_DELAY_SCRIPT, ...DELAYED },
      { data: 'safe', why: 'the late claim carries an older token than the fence and is rejected' },
    ),
  ],
};

export const S6: Scenario = {
  id: 'S6',
  title: 'Unique-token check-and-set vs monotonic fence, under S1, S2 and S2b',
  claim:
    "A resource that can check a token does not need it to be monotonic: check-and-set on Redlock's unique token protects as well as a fence (antirez). Kleppmann: only if nothing can arrive late.",
  predictions: {
    kleppmann:
      'Check-and-set on a unique token survives a pause and a late write (the new holder marked first), but not a late mark (S2b), where the order of tokens is what matters.',
    antirez: 'Check-and-set on the unique token is enough in every case; a monotonic counter is not required.',
  },
  setup:
    'The scripts of S1 (holder paused 3 s), S2 (write delayed 1.5 s) and S2b (mark delayed 1.5 s), each with resource cas-unique and with a monotonic fence (fence, or fence-claim for the late mark), on single Redis. Runs with the same options as S1, S2 or S2b are shared with those rows.',
  recipe:
    "to compare a unique token's check-and-set with a monotonic fence under a pause, a late write and a late mark, run `sudo npx fencecheck scenario run S6`",
  variants: [
    variant(
      'pause-cas-unique',
      "S1's pause, check-and-set on the unique token",
      { backend: 'redis', resource: 'cas-unique', script: PAUSE_SCRIPT },
      { data: 'safe', why: 'the new holder marked the resource before the paused holder wrote' },
    ),
    variant(
      'pause-fence',
      "S1's pause, monotonic fence",
      { backend: 'redis', resource: 'fence', script: PAUSE_SCRIPT },
      { data: 'safe', why: 'the stale token is below the fence' },
    ),
    variant(
      'delay-cas-unique',
      "S2's late write, check-and-set on the unique token",
      { backend: 'redis', resource: 'cas-unique', script: WRITE_DELAY_SCRIPT, ...DELAYED },
      { data: 'safe', why: "the new holder's mark arrived before the late write" },
    ),
    variant(
      'delay-fence',
      "S2's late write, monotonic fence",
      { backend: 'redis', resource: 'fence', script: WRITE_DELAY_SCRIPT, ...DELAYED },
      { data: 'safe', why: "the new holder's write raised the fence first" },
    ),
    variant('late-mark-cas-unique', "S2b's late mark, check-and-set on the unique token", {
      backend: 'redis',
      resource: 'cas-unique',
      script: MARK_DELAY_SCRIPT,
      ...DELAYED,
    }),
    variant(
      'late-mark-fence-claim',
      "S2b's late mark, monotonic claim",
      { backend: 'redis', resource: 'fence-claim', script: MARK_DELAY_SCRIPT, ...DELAYED },
      { data: 'safe', why: 'the late claim carries an older token than the fence' },
    ),
  ],
};

export const S6B: Scenario = {
  id: 'S6b',
  title: 'Per-write fencing vs fenced reads on a read-modify-write',
  claim:
    "Fencing orders writes; it does not make the critical section atomic. In a read-modify-write, a stale write that lands after the new holder's read and before its write is accepted by a per-write fence, and the new holder's increment then overwrites it: a lost update with every write fenced.",
  predictions: {
    kleppmann:
      '(implied) The storage must check the token on every access the section depends on; his example fences writes only. Fencing the read as well (fence-claim) closes the gap.',
    antirez:
      '(implied) A resource able to check tokens atomically could do the whole read-modify-write itself (check-and-set), which makes the lock unnecessary for correctness.',
  },
  setup:
    "lock-counter, 2 clients, TTL 1 s, hold 300 ms, call timeout 4 s, a delay proxy on each link to PostgreSQL. At 2, 5 and 8 s the holder's link is slowed by 0.9 s for 600 ms: its write, sent about 300 ms after its grant, lands about 1.2 s after it, after the lease expired (1 s) and the next holder read (about 1.0 s) but before that holder writes (about 1.3 s). Resource fence (reads not fenced) vs fence-claim (the read claims the resource with the token).",
  recipe:
    "to see a per-write fence accept a stale write inside the next holder's read-modify-write (and a claiming read refuse it), run `sudo npx fencecheck scenario run S6b`",
  variants: [
    variant('redis-fence', 'writes fenced, reads not', { backend: 'redis', resource: 'fence', script: SHORT_WRITE_DELAY_SCRIPT, ...DELAYED }),
    variant(
      'redis-fence-claim',
      'the read claims the resource with the token, writes fenced',
      { backend: 'redis', resource: 'fence-claim', script: SHORT_WRITE_DELAY_SCRIPT, ...DELAYED },
      { data: 'safe', why: "the new holder's read raised the fence, so the late write is rejected" },
    ),
  ],
};
