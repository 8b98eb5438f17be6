/**
 * S11: etcd's own lock recipe, clientv3/concurrency's Session + Mutex, the
 * code behind etcd's Lock RPC, measured as Jepsen measured etcd 3.4.3 in
 * 2020. Jepsen found that Mutex.Lock, after waiting for the keys before its
 * own to go, returns success without checking that its own key (its
 * session's lease) still exists: a waiter whose lease expired while it
 * waited is told it holds the lock (etcd-io/etcd#11456; with 2 s TTLs, five
 * processes and pauses every five seconds, about 18% of acknowledged updates
 * were lost). The fix (a Get of the own key after the wait) is not in the
 * clientv3/concurrency/mutex.go that Debian ships with etcd 3.4.23, read for
 * this: the question is what that costs, measured.
 *
 * The variants run the Go reference client (clients/go/etcd-mutex, built by
 * `npm run setup -- --go`); it reads its key once after each grant and
 * reports `finding: expired-lease grant` on stderr when it is gone, which the
 * scenario table counts. The control is S8's run of fencecheck's built-in
 * etcd client (lease + txn, no Mutex), shared with S8.
 */
import { goClientPath } from '../../runtime/hosts/paths.js';
import { pauses, serverPauses } from './fault-script.js';
import type { Scenario, ScenarioVariant } from './scenario.js';
import { S8 } from './service-scenarios.js';

/** Jepsen's rhythm: a fault every five seconds, three seconds long (longer than the 2 s TTL), for 30 s. */
export const JEPSEN_STARTS = [2000, 7000, 12_000, 17_000, 22_000] as const;
export const JEPSEN_CLIENT_PAUSE_SCRIPT = pauses(JEPSEN_STARTS, 3000);
export const JEPSEN_SERVER_PAUSE_SCRIPT = serverPauses(JEPSEN_STARTS, 3000, ['etcd1', 'etcd2', 'etcd3']);

const MUTEX_CLIENT = { program: goClientPath(), hint: "build it with `npm run setup -- --go` (Debian's golang-go and golang-etcd-server-dev)" };
/** Five processes, a 2 s TTL, 30 s, and a call timeout long enough that a paused waiter keeps waiting when it wakes. */
const JEPSEN = { backend: 'etcd', resource: 'none', clients: 5, ttlMs: 2000, timeLimitS: 30, callTimeoutMs: 8000 } as const;

function mutexVariant(label: string, text: string, options: ScenarioVariant['options']): ScenarioVariant {
  return { label, text, options: { ...options, client: MUTEX_CLIENT.program }, requires: MUTEX_CLIENT };
}

const S8_VARIANT = S8.variants[0]!;

export const S11: Scenario = {
  id: 'S11',
  title: "etcd's concurrency.Mutex: the waiter told it holds a lock its expired lease lost (Jepsen, etcd 3.4.3)",
  claim:
    "Jepsen (2020) found etcd 3.4.3's lock unsafe: Mutex.Lock returns success to a waiter whose lease expired while it waited, because it does not check its own key after the wait (etcd-io/etcd#11456); about 18% of acknowledged updates were lost with 2 s TTLs, five processes and pauses every five seconds. Debian's etcd 3.4.23 ships that Mutex without the re-check. How much is lost, and does a fence on the grant's revision save the data?",
  predictions: {
    kleppmann: "(2016, before the finding) Any lease can expire while the client waits; only a fencing token (the key's revision) protects the data.",
    antirez: '(not discussed in the debate) His general point: every auto-release lock shares these timing issues.',
  },
  setup:
    "The Go reference client: etcd's clientv3/concurrency Session (TTL 2 s, etcd's minimum) and Mutex as its README shows them, Debian's etcd 3.4.23 sources; token Mutex.Header().Revision; after each grant it reads its own key once and reports \"expired-lease grant\" on stderr when the key is gone (its answer unchanged). waiter-pause: S8's timing (2 clients, hold 1.5 s, a client whose acquire is in flight paused 3 s at 1.5, 5 and 8.5 s). jepsen-*: five clients, 30 s, call timeout 8 s, a fault every 5 s from 2 s, 3 s long: the holder paused, or an etcd member paused (etcd1, etcd2, etcd3 in turn). builtin-control is S8's run of fencecheck's own etcd client (lease + txn), which is refused instead (lease-not-found).",
  recipe:
    "to see etcd's concurrency.Mutex grant a lock to a waiter whose lease had expired, and count the updates it loses, build the Go client once with `npm run setup -- --go`, then run `sudo npx fencecheck scenario run S11` (add `--seeds 3` for a rate)",
  variants: [
    mutexVariant('waiter-pause', "concurrency.Mutex, a waiter paused 3 s past its 2 s lease (S8's timing), no fence", S8_VARIANT.options),
    mutexVariant('waiter-pause-fence-claim', "the same, the grant's revision (Mutex.Header().Revision) claimed as a fence before the section reads", {
      ...S8_VARIANT.options,
      resource: 'fence-claim',
    }),
    mutexVariant('jepsen-client-pause', "Jepsen's shape: five clients, 2 s TTL, the holder paused 3 s every 5 s, no fence", {
      ...JEPSEN,
      script: JEPSEN_CLIENT_PAUSE_SCRIPT,
    }),
    mutexVariant('jepsen-server-pause', "Jepsen's shape: five clients, 2 s TTL, an etcd member paused 3 s every 5 s, no fence", {
      ...JEPSEN,
      script: JEPSEN_SERVER_PAUSE_SCRIPT,
    }),
    { label: 'builtin-control', text: "fencecheck's built-in etcd client (lease + txn, no Mutex) under S8's waiter pauses", options: S8_VARIANT.options },
  ],
};
