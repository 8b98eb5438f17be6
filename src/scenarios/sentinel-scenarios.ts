/**
 * S7: the lock on a replicated Redis (a master, two asynchronous replicas,
 * three Sentinels) lost in a failover. Kleppmann's first argument, and the
 * configuration most production Redis locks run on.
 *
 * Timing (the seed changes only think times): 2 clients, hold 7 s, TTL 10 s.
 * The first grant comes at about 0.2 s and the next about 7.5 s, when the
 * first holder releases. At 1.5 s the master is cut off from its replicas
 * (the Sentinels and the clients still reach it, so no failover starts):
 * the 7.5 s grant, and its INCR token, reach the master only. At 9.5 s the
 * master is killed (-9); the Sentinels promote a replica about 2.5 s later,
 * the first holder's key (granted at 0.2 s, TTL 10 s) has expired by then,
 * and the waiting client, reconnecting through the Sentinels, is granted the
 * lock while the 7.5 s holder still holds it (until about 14.5 s). The
 * replicas stay cut off until 14.5 s, after the failover: a killed process's
 * unsent replication stream stays in its kernel's socket buffer, and healing
 * at the kill lets it through (the write then survives; seen in
 * test/integration/redis-sentinel.test.ts). The old master restarts empty at
 * 21 s and the Sentinels turn it into a replica.
 *
 * min-replicas-in-lag: the same with the cut at 6.8 s and the kill at 8.8 s,
 * so that the grant at about 7.5 s falls inside min-replicas-max-lag (1 s):
 * the master still counts its replicas as present and accepts it.
 *
 * Split brain: the master and one of the two clients are cut off from the
 * replicas, the Sentinels and the other client from 2 to 9 s; the Sentinels
 * promote a replica at about 4.5 s while the first client keeps locking on
 * the old master. `min-replicas-to-write 1` (max lag 1 s) makes the old
 * master refuse writes once its replicas have been silent for over a second.
 */
import { leaderKill, masterPartition, timeline } from './fault-script.js';
import type { Expectation, Scenario, ScenarioVariant } from './scenario.js';

/** The S7 race made certain: replication cut before the grant, the master killed after it, healed after the failover. */
export const FAILOVER_SCRIPT = timeline(masterPartition(1500, 14_500, 'master-from-replicas'), leaderKill(9500, 21_000));

/**
 * The same race inside min-replicas-max-lag: the replicas are cut off at
 * 6.8 s, just before the 7.5 s grant, and the master killed at 8.8 s. The
 * master counts a replica as present until its last acknowledgement (sent
 * every second) is more than a second old, so a grant in the first second or
 * so of the cut is still accepted.
 */
export const LAG_SCRIPT = timeline(masterPartition(6800, 14_500, 'master-from-replicas'), leaderKill(8800, 21_000));

/** The master isolated with a minority of the clients while the Sentinels promote a replica. */
export const SPLIT_BRAIN_SCRIPT = timeline(masterPartition(2000, 9000, 'master-with-minority'));

const FAILOVER = { backend: 'redis-sentinel', holdMs: 7000, ttlMs: 10_000, timeLimitS: 24, script: FAILOVER_SCRIPT } as const;
const SPLIT = { backend: 'redis-sentinel', holdMs: 1000, ttlMs: 3000, timeLimitS: 14, script: SPLIT_BRAIN_SCRIPT } as const;

const LOST: Expectation = {
  lock: 'unsafe',
  data: 'unsafe',
  why: 'both sides agree: an acknowledged grant that never reached a replica is gone after the failover, and a second client is granted the lock',
};

function variant(label: string, text: string, options: ScenarioVariant['options'], expected?: Expectation): ScenarioVariant {
  return { label, text, options, ...(expected ? { expected } : {}), evidence: 'lost-grant' };
}

export const S7: Scenario = {
  id: 'S7',
  title: 'Replicated Redis with Sentinel: the master dies before replicating a grant',
  claim:
    'A lock on a Redis master with asynchronous replicas is lost when the master dies after granting it but before the key reached a replica, and Sentinel promotes that replica: a second client is granted the same lock. The INCR fencing token lives on the same master and is lost with it.',
  predictions: {
    kleppmann:
      'Unsafe: replication is asynchronous, so the failover loses acknowledged grants; a token from the same Redis goes backwards with them, so it does not fence. WAIT does not make Redis linearizable either: it says how many replicas had the write, it does not roll back or order anything.',
    antirez:
      'Unsafe with plain failover; this race is why Redlock uses independent masters. WAIT after acquiring (grant refused unless a replica has it) and min-replicas-to-write narrow the window; neither makes a failover-based lock safe in every case.',
  },
  setup:
    'redis-sentinel (rs1 master, rs2, rs3 replicas, three Sentinels, quorum 2, down-after 1 s), lock-counter, 2 clients that reach the master through the Sentinels (ioredis sentinels + name). Failover rows: hold 7 s, TTL 10 s; the master is cut off from its replicas from 1.5 to 14.5 s and killed at 9.5 s, so the grant at about 7.5 s is acknowledged by the master only; restarted at 21 s. min-replicas-in-lag: cut off only at 6.8 s and killed at 8.8 s, so the grant falls within the 1 s max lag. Split-brain rows: hold 1 s, TTL 3 s; the master and client c1 are cut off from the replicas, the Sentinels and c2 from 2 to 9 s. A row counts as decided only when a seed shows the danger (a grant lost in the failover: another client granted the lock while the first still held it, within its TTL) or the protection refusing grants (WAIT, NOREPLICAS); otherwise it is undecided, not safe.',
  recipe:
    'to see a lock acknowledged by a Redis master lost when Sentinel promotes a replica (and what WAIT and min-replicas-to-write do about it), run `sudo npx fencecheck scenario run S7`',
  variants: [
    variant('failover-none', 'replicas cut off, master killed after a grant, no fence', { ...FAILOVER, resource: 'none' }, LOST),
    variant(
      'failover-fence',
      'the same, writes fenced by the INCR token',
      { ...FAILOVER, resource: 'fence' },
      { lock: 'unsafe', why: 'the grant is lost; whether the fence saves the data is the question (Kleppmann: no, the token is lost with the grant)' },
    ),
    variant('failover-wait', 'the same, no fence, WAIT 1 after each grant (refused when no replica acknowledges)', {
      ...FAILOVER,
      resource: 'none',
      waitReplicas: 1,
    }),
    variant('failover-min-replicas', 'the same, no fence, min-replicas-to-write 1 with max lag 1 s on every data node', {
      ...FAILOVER,
      resource: 'none',
      minReplicas: 1,
    }),
    variant(
      'min-replicas-in-lag',
      'min-replicas-to-write 1 (max lag 1 s), no fence, but the replicas cut off only at 6.8 s, just before the grant, and the master killed at 8.8 s',
      { ...FAILOVER, script: LAG_SCRIPT, resource: 'none', minReplicas: 1 },
    ),
    variant(
      'split-brain-none',
      'master isolated with one client of two while a replica is promoted, no fence',
      { ...SPLIT, resource: 'none' },
      { lock: 'unsafe', why: 'both sides agree: two masters grant the lock at once' },
    ),
    variant('split-brain-min-replicas', 'the same, min-replicas-to-write 1 with max lag 1 s', { ...SPLIT, resource: 'none', minReplicas: 1 }),
  ],
};
