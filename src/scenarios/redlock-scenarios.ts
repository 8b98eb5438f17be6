/**
 * The scenarios about Redlock itself: five independent Redis nodes, a lock
 * held when a majority granted it. S3 and S4 make two clients each reach a
 * different majority (c1 reaches redlock1-3, c2 reaches redlock3-5), so that
 * only redlock3 keeps them apart, then make redlock3 forget the lock: its
 * clock jumps forward (S3) or it restarts empty (S4). S10 is the same kind
 * of partition with nothing else wrong: the negative control. S5 slows one
 * client's acquisition past the TTL.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { clientsReach, clockJumps, delays, kills, partition, timeline } from './fault-script.js';
import type { Scenario } from './scenario.js';

export const REDLOCK_NODES = ['redlock1', 'redlock2', 'redlock3', 'redlock4', 'redlock5'] as const;

/** c1 reaches redlock1-3, c2 reaches redlock3-5: redlock3 is the only node both can lock. */
export const SPLIT_MAJORITIES = clientsReach({ c1: ['redlock1', 'redlock2', 'redlock3'], c2: ['redlock3', 'redlock4', 'redlock5'] }, REDLOCK_NODES);

/** Three clients, each reaching a majority around the ring; every two majorities share a node. */
export const RING_MAJORITIES = clientsReach(
  { c1: ['redlock1', 'redlock2', 'redlock3'], c2: ['redlock3', 'redlock4', 'redlock5'], c3: ['redlock5', 'redlock1', 'redlock2'] },
  REDLOCK_NODES,
);

/** S3: the split from 1 s to 11.5 s; redlock3's clock 3 s ahead (more than the 2 s TTL) for 500 ms at 2.5, 5 and 7.5 s. */
export const CLOCK_JUMP_SCRIPT: FaultWindow[] = timeline(partition(1000, 11_500, SPLIT_MAJORITIES), clockJumps([2500, 5000, 7500], 500, 'redlock3', 3000));

/**
 * S3 holds long (1.5 s of a 2 s TTL): a jump only expires a key that exists,
 * so a client must hold when it strikes, and the other must try before the
 * holder lets go. The call timeout is short (300 ms) because every call also
 * waits for the two nodes the client cannot reach: the npm library, which has
 * no per-node timeout, otherwise spends its whole acquire on one failed attempt.
 */
const JUMP = { ttlMs: 2000, holdMs: 1500, callTimeoutMs: 300 } as const;

/** S4: the split, and redlock3 killed at 2.5, 5.5 and 8.5 s and restarted 100 ms later. */
export const QUICK_RESTART_SCRIPT: FaultWindow[] = timeline(partition(1000, 11_500, SPLIT_MAJORITIES), kills([2500, 5500, 8500], 100, 'redlock3'));

/** S4: the split, and redlock3 down for 2.5 s (longer than the 2 s TTL) at 2.5 and 7 s. */
export const DELAYED_RESTART_SCRIPT: FaultWindow[] = timeline(partition(1000, 11_500, SPLIT_MAJORITIES), kills([2500, 7000], 2500, 'redlock3'));

/** S5: every packet of c1 to and from the Redis nodes 1.2 s late (more than the 1 s TTL), from 2 to 6 s and from 7 to 11 s. */
export const SLOW_ACQUIRE_SCRIPT: FaultWindow[] = delays([2000, 7000], 4000, 1200, 'lock', { kind: 'client', worker: 0 });

/** S10: the ring from 1 s to 11.5 s, clocks untouched. */
export const RING_SCRIPT: FaultWindow[] = [partition(1000, 11_500, RING_MAJORITIES, 'majorities-ring')];

/** S4 holds long (1.2 s of a 2 s TTL) so that the other client reaches the restarted node while the first still holds. */
const RESTART = { ttlMs: 2000, holdMs: 1200 } as const;

export const S3: Scenario = {
  id: 'S3',
  title: "Redlock: a node's clock jumps forward while clients see different majorities",
  claim:
    "Redlock's safety rests on clocks: if one node's wall clock jumps forward, the lock key there expires early, and a client that reaches that node and two others assembles a second majority while the first holder still holds its own.",
  predictions: {
    kleppmann: 'Unsafe: two clients hold the lock at once. Redlock assumes bounded clock error, which NTP steps and operators break in practice.',
    antirez:
      "A jump does break it, but it is an operational error outside Redlock's model, which assumes clocks that only drift boundedly; run ntpd slewing, never step the clock.",
  },
  setup:
    "lock-counter, 2 clients, TTL 2 s, hold 1.5 s (a jump expires only a key that exists, so someone must hold when it strikes, and the other must try before the holder lets go), call timeout 300 ms (every call also waits for the two nodes the client cannot reach; the npm library has no per-node timeout, and with 1 s it spent whole acquires on one failed attempt and missed the jump). From 1 s to 11.5 s c1 reaches only redlock1-3 and c2 only redlock3-5 (nftables, both ways). At 2.5, 5 and 7.5 s redlock3's wall clock (the fc-clock preload Redis expires keys by) jumps 3 s ahead, more than the TTL, for 500 ms: the key of whoever holds then expires at once, and the waiting client locks redlock3 and its two other nodes while the first still believes it holds.",
  recipe: 'to see Redlock grant the same lock twice after a clock jump, run `sudo npx fencecheck scenario run S3`',
  variants: [
    {
      label: 'redlock-none',
      text: 'Redlock (our implementation)',
      options: { backend: 'redlock', resource: 'none', script: CLOCK_JUMP_SCRIPT, ...JUMP },
      expected: {
        lock: 'unsafe',
        data: 'unsafe',
        why: 'both sides agree a forward jump expires the key early; they disagree on whether such a jump is a fair fault',
      },
    },
    {
      label: 'redlock-npm-none',
      text: 'the npm redlock library',
      options: { backend: 'redlock-npm', resource: 'none', script: CLOCK_JUMP_SCRIPT, ...JUMP },
      expected: { lock: 'unsafe', why: 'the library implements the same algorithm' },
    },
  ],
};

export const S4: Scenario = {
  id: 'S4',
  title: 'Redlock: a node crashes and restarts without persistence',
  claim:
    'A Redlock node that restarts without persistence has forgotten the locks it granted. Restarted at once, it can grant the lock to a second client while the first still holds its majority; delaying the restart by more than the TTL, or fsync on every write, is the documented remedy.',
  predictions: {
    kleppmann:
      "Unsafe with an immediate restart. Delayed restarts rest once more on timing (the restart delay against the TTL), and appendfsync always costs most of Redis's speed.",
    antirez:
      'Unsafe without persistence and an immediate restart, as the Redlock page says; a restart delayed by the maximum TTL, or appendfsync always, keeps it safe.',
  },
  setup:
    'lock-counter, 2 clients, TTL 2 s, hold 1.2 s (so the other client reaches the restarted node while the first still holds). From 1 s to 11.5 s c1 reaches only redlock1-3 and c2 only redlock3-5. Immediately: redlock3 is killed (SIGKILL) at 2.5, 5.5 and 8.5 s and restarted 100 ms later, empty. Delayed: down for 2.5 s (more than the TTL) at 2.5 and 7 s. appendfsync always: as immediately, with the AOF fsynced on every write. Note: kill -9 leaves written AOF data in the page cache, so on this machine everysec would survive a kill too; telling them apart needs a power-loss fault, which fencecheck does not have.',
  recipe:
    'to see a Redlock node that restarts empty grant the lock a second time (and a delayed restart or fsync always prevent it), run `sudo npx fencecheck scenario run S4`',
  variants: [
    {
      label: 'immediate',
      text: 'persistence none, restarted after 100 ms',
      options: { backend: 'redlock', resource: 'none', script: QUICK_RESTART_SCRIPT, ...RESTART },
      expected: { lock: 'unsafe', why: 'both sides agree: the restarted node grants the lock again' },
    },
    {
      label: 'delayed',
      text: 'persistence none, restarted after 2.5 s (> TTL)',
      options: { backend: 'redlock', resource: 'none', script: DELAYED_RESTART_SCRIPT, ...RESTART },
      expected: { lock: 'safe', data: 'safe', why: "the first holder's keys have expired before the node comes back" },
    },
    {
      label: 'aof-always',
      text: 'appendonly yes, appendfsync always, restarted after 100 ms',
      options: { backend: 'redlock', resource: 'none', script: QUICK_RESTART_SCRIPT, redisPersistence: 'aof-always', ...RESTART },
      expected: { lock: 'safe', data: 'safe', why: 'the key survives the restart' },
    },
  ],
};

export const S5: Scenario = {
  id: 'S5',
  title: 'Redlock: a client is delayed during acquisition',
  claim:
    "A client delayed during acquisition is caught by Redlock's validity check: the time spent acquiring is subtracted from the TTL, and a lock whose validity is gone is not used.",
  predictions: {
    kleppmann: 'The check catches delays before it, and only those: nothing protects a client paused right after it (S1).',
    antirez: 'Safe: step 3 measures the elapsed time, and the client does not proceed with a lock whose validity has run out.',
  },
  setup:
    "lock-counter, 2 clients, TTL 1 s, hold 300 ms, call timeout 3 s, a delay proxy on each client's links to the five Redis nodes. A SIGSTOP inside an acquisition of about 2 ms cannot be aimed with a timer, so this uses a delay instead, with the same effect on the validity check and deterministic: from 2 to 6 s and from 7 to 11 s every packet between c1 and the Redis nodes is held 1.2 s in each direction, so the SETs land 1.2 s after they were sent and their answers arrive 2.4 s after, when the keys (TTL 1 s) have already expired and c2 may hold the lock. Our Redlock bounds each node's answer by min(50 ms, TTL/10), so it counts the late votes as missing before the validity check is even reached (the check itself is unit-tested on a fake clock); the npm library waits for the votes and, as its source shows, never compares the expiration with the clock after a quorum.",
  recipe:
    'to see the npm redlock library hand out a lock whose validity has already run out (and our Redlock refuse it), run `sudo npx fencecheck scenario run S5`',
  variants: [
    {
      label: 'redlock',
      text: 'our Redlock (per-node timeout, validity check)',
      options: { backend: 'redlock', resource: 'none', script: SLOW_ACQUIRE_SCRIPT, proxies: 'lock', callTimeoutMs: 3000 },
      expected: { lock: 'safe', why: 'a correct Redlock refuses a lock acquired too slowly' },
    },
    {
      label: 'redlock-npm',
      text: 'the npm redlock library (no validity check after acquiring)',
      options: { backend: 'redlock-npm', resource: 'none', script: SLOW_ACQUIRE_SCRIPT, proxies: 'lock', callTimeoutMs: 3000 },
      expected: { lock: 'unsafe', why: 'both sides agree a lock past its validity must not be used, and this library does not check' },
    },
  ],
};

export const S10: Scenario = {
  id: 'S10',
  title: 'Redlock under a majorities-ring partition, healthy clocks (negative control)',
  claim:
    "With clocks, pauses and delays within bounds, Redlock's majority rule keeps the lock exclusive even when every client reaches a different majority of the nodes.",
  predictions: {
    kleppmann: 'Safe under these conditions: his objections need a clock jump, a long pause or a long delay, none of which happens here.',
    antirez: 'Safe: any two majorities share a node, which grants the key to one client only.',
  },
  setup:
    'lock-counter, 3 clients, TTL 1 s, hold 300 ms. From 1 s to 11.5 s c1 reaches only redlock1-3, c2 only redlock3-5 and c3 only redlock5, 1, 2: each client sees a majority and any two majorities intersect. No clock, pause or delay fault.',
  recipe:
    'to check that Redlock stays exclusive when each client sees a different majority and clocks are healthy (the control), run `sudo npx fencecheck scenario run S10`',
  variants: [
    {
      label: 'redlock',
      text: 'our Redlock',
      options: { backend: 'redlock', resource: 'none', script: RING_SCRIPT, clients: 3 },
      expected: { lock: 'safe', data: 'safe', why: 'both sides agree: majorities intersect and no timing assumption is broken' },
    },
    {
      label: 'redlock-npm',
      text: 'the npm redlock library',
      options: { backend: 'redlock-npm', resource: 'none', script: RING_SCRIPT, clients: 3 },
      expected: { lock: 'safe', data: 'safe', why: 'the same algorithm, no timing fault' },
    },
  ],
};
