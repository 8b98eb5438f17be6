/**
 * The scenarios about the other lock services: an etcd waiter whose lease
 * dies while it waits (S8), and a ZooKeeper holder whose session expires
 * while it is paused (S9). Replicated Redis (S7) is in sentinel-scenarios.ts.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { PAUSE_SCRIPT } from './client-scenarios.js';
import { pauses } from './fault-script.js';
import type { Scenario } from './scenario.js';

/** S8: a client whose acquire is in flight paused 3 s (more than etcd's 2 s minimum lease), three times. */
export const WAITER_PAUSE_SCRIPT: FaultWindow[] = pauses([1500, 5000, 8500], 3000, { kind: 'acquirer' });

export const S8: Scenario = {
  id: 'S8',
  title: "etcd: a waiter's lease expires while it waits",
  claim:
    "A client waiting for an etcd lock holds a lease that can expire while it waits (Jepsen found etcd 3.4.3's lock API granting the lock to such a client). Is the lock still granted to it?",
  predictions: {
    kleppmann: "(implied) Any lease can expire while the client waits or right after the grant; only a fencing token (the key's revision) protects the data.",
    antirez: '(not discussed in the debate) His general point: every auto-release lock shares these timing issues.',
  },
  setup:
    "lock-counter, 2 clients, TTL 1 s (etcd raises it to its 2 s minimum), hold 1.5 s and 10 sections a second so that the client not holding is nearly always waiting, call timeout 8 s so that a waiter keeps waiting after it wakes. At 1.5, 5 and 8.5 s a client whose acquire is in flight is paused for 3 s, longer than its lease (when none is in flight, the next to start one is paused before it begins, which shows nothing: an acquire refused with lease-not-found in the notes is the sign the fault struck a waiter). fencecheck's etcd client does not use etcd's Lock RPC (the one Jepsen tested): it grants a lease and creates the key in a txn under that lease, so on waking its next txn that can take the key names a dead lease.",
  recipe: 'to see whether etcd grants the lock to a waiter whose lease expired while it waited, run `sudo npx fencecheck scenario run S8`',
  variants: [
    {
      label: 'etcd-none',
      text: "fencecheck's etcd client (lease + txn), the waiter paused 3 s",
      options: { backend: 'etcd', resource: 'none', script: WAITER_PAUSE_SCRIPT, holdMs: 1500, rate: 10, callTimeoutMs: 8000 },
    },
  ],
};

export const S9: Scenario = {
  id: 'S9',
  title: "ZooKeeper: the holder's session expires during a client pause",
  claim:
    'ZooKeeper locks have the same problem as any lease: a holder paused for longer than its session timeout loses its ephemeral node, another client gets the lock, and the paused client does not know until it wakes, and may write first.',
  predictions: {
    kleppmann: 'Agreed, ZooKeeper alone is not enough; but it provides a fencing token (the zxid of the lock node), with which the resource stays safe.',
    antirez: 'Any auto-release lock, ZooKeeper included, has this issue; it is not an argument against Redlock in particular.',
  },
  setup:
    "lock-counter, 2 clients, session timeout 1 s (ZooKeeper tickTime 500 ms), hold 300 ms, native ZooKeeper client; by default the client does not ask whether its session is still alive before writing. Short: the holder is paused 400 ms at 2, 4, 6 and 8 s, less than the session timeout. Long: S1's pauses (3 s at 1.5, 5 and 8.5 s), with resource none and with the czxid fence (those runs are shared with S1), and with a careful client that asks the ZooKeeper client whether its session is still alive before every access (it catches the expiry only if the client library has noticed it by the time the woken client checks).",
  recipe: 'to see a ZooKeeper holder write after its session expired during a pause (and the czxid fence reject it), run `sudo npx fencecheck scenario run S9`',
  variants: [
    {
      label: 'short-pause',
      text: 'paused 400 ms (< session timeout), no fence',
      options: { backend: 'zookeeper', resource: 'none', script: pauses([2000, 4000, 6000, 8000], 400) },
      expected: { lock: 'safe', data: 'safe', why: 'the session survives a pause shorter than its timeout' },
    },
    {
      label: 'long-pause-none',
      text: 'paused 3 s (> session timeout), no fence',
      options: { backend: 'zookeeper', resource: 'none', script: PAUSE_SCRIPT },
      expected: { lock: 'unsafe', data: 'unsafe', why: 'the session expires, another client acquires, the woken client writes' },
    },
    {
      label: 'long-pause-fence',
      text: 'paused 3 s, czxid fenced',
      options: { backend: 'zookeeper', resource: 'fence', script: PAUSE_SCRIPT },
      expected: { lock: 'unsafe', data: 'safe', why: "the woken client's write carries an older czxid than the fence" },
    },
    {
      label: 'long-pause-careful',
      text: 'paused 3 s, no fence, but the client asks whether its session is still alive before each access (--check-hold)',
      options: { backend: 'zookeeper', resource: 'none', script: PAUSE_SCRIPT, checkHold: true },
    },
  ],
};
