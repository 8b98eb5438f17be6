/**
 * A lock on etcd: a lease, and the lock key created under it only if absent.
 *
 * acquire: grant a lease (TTL in whole seconds, rounded up, at least 1; etcd
 * may raise it to its minimum), then a txn `if create_revision(key) == 0
 * then put(key, lease) else get(key)`, retried after a short random pause
 * until the call timeout while another client's key exists. The lease is
 * kept alive (etcd3's keep-alive stream, every TTL/3) while held.
 * Token: the key's create_revision, which is the header revision of the
 * winning txn: unique and increasing across holders.
 * release: a txn `if lease(key) == ours and create_revision(key) == token
 * then delete(key)`, then the lease is revoked.
 *
 * Every unary call has an explicit deadline (etcd3 has none by default), and
 * etcd3's blind retries are off: a txn whose first try may have committed
 * must not be sent again without looking.
 *
 * holdLost(): the lease is counted lost when etcd3 reports it lost, or when
 * its last proof of life has run out: a keep-alive answer proves the lease
 * alive until (when that keep-alive was sent) + (the TTL it renewed), on the
 * monotonic clock. etcd's Go client counts from the answer instead; counting
 * from the send is the conservative end, and it matters: a client paused with
 * an answer unread must not, on waking, read it as fresh.
 */
import { etcdOpError } from './etcd-errors.js';
import { etcd3Port, type EtcdLease, type EtcdPort, type LeaseEvents } from './etcd-port.js';
import { tokenFromDecimal, type Acquired, type LockClient, type LockClientOptions, type Token } from './lock-client.js';
import { failed, messageOf } from './op-error.js';
import { monotonicNow, retryDelayMs, sleep, withTimeout } from './time.js';
import { realRuntime, type ClientRuntime } from './client-runtime.js';

/** What this client knows of one lease's life, from etcd3's keep-alive events. */
export interface LeaseLife {
  /** Monotonic ms until which the lease is surely alive. */
  validUntil: number;
  /** Why etcd3 gave the lease up, if it did. */
  lost?: string;
}

/**
 * Follow a lease from its creation. Answers come in order on the keep-alive
 * stream, each for the oldest unanswered keep-alive, so the send times queue
 * up; a new stream (after an error) starts a new queue.
 */
export function followLease(lease: LeaseEvents, grantSentAt: number, leaseMs: number, now: () => number = monotonicNow): LeaseLife {
  const life: LeaseLife = { validUntil: grantSentAt + leaseMs };
  const sent: number[] = [];
  lease.on('keepaliveEstablished', () => (sent.length = 0));
  lease.on('keepaliveFailed', () => (sent.length = 0));
  lease.on('keepaliveFired', () => sent.push(now()));
  lease.on('keepaliveSucceeded', (res) => {
    const at = sent.shift();
    const ttlMs = Number(res.TTL) * 1000;
    if (at !== undefined && ttlMs > 0) life.validUntil = Math.max(life.validUntil, at + ttlMs);
  });
  lease.on('lost', (err) => (life.lost = `lease lost: ${err.message}`));
  return life;
}

interface EtcdHold {
  lease: EtcdLease;
  life: LeaseLife;
  leaseId: string;
  token: Token;
  revision: string;
}

/** The lease's TTL in seconds for a TTL in ms: rounded up, at least 1. */
export function leaseSeconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs / 1000));
}

export class EtcdLockClient implements LockClient {
  readonly backend = 'etcd';
  private readonly client: EtcdPort;
  private readonly rt: ClientRuntime;
  private hold: EtcdHold | undefined;

  constructor(private readonly o: LockClientOptions) {
    this.rt = o.runtime ?? realRuntime;
    this.client = (this.rt.etcd ?? etcd3Port)({ endpoints: o.endpoints, callTimeoutMs: o.callTimeoutMs });
  }

  async connect(): Promise<void> {
    await withTimeout(this.client.probe(`${this.o.lockName}`), 5000, 'etcd connect', this.rt.clock).catch((err: unknown) =>
      this.o.log(`etcd: not reachable at start: ${messageOf(err)}`),
    );
  }

  async acquire(ttlMs: number): Promise<Acquired> {
    const key = this.o.lockName;
    const ttlS = leaseSeconds(ttlMs);
    const clock = this.rt.clock;
    const now = (): number => monotonicNow(clock);
    const deadline = now() + this.o.callTimeoutMs;
    const lease = this.client.lease(ttlS);
    const life = followLease(lease, now(), ttlS * 1000, now);
    let leaseId: string;
    try {
      leaseId = await lease.grant();
    } catch (err) {
      lease.release();
      // A lease alone grants nothing: no lock key was written under it.
      throw failed('no-lease', messageOf(err), err);
    }
    for (;;) {
      let taken: { revision: string } | undefined;
      try {
        const res = await this.client.createIfAbsent(key, leaseId);
        const kv = res.existing;
        if (res.succeeded) taken = { revision: res.revision };
        // The key is already ours (our put under this lease): only possible if an earlier try's answer was lost.
        else if (kv && kv.lease === leaseId) taken = { revision: kv.create_revision };
      } catch (err) {
        // If the txn did commit, revoking the lease deletes the key: best effort, in the background.
        void lease.revoke().catch(() => undefined);
        throw etcdOpError(err);
      }
      if (taken) {
        this.hold = { lease, life, leaseId, token: tokenFromDecimal(taken.revision), revision: taken.revision };
        return { token: this.hold.token, lease_ms: ttlMs };
      }
      const remaining = deadline - now();
      if (remaining <= 0) {
        void lease.revoke().catch(() => undefined);
        // Every txn's compare found another client's key and applied nothing (the else branch only reads).
        throw failed('held', `${key} is held by another client`);
      }
      await sleep(Math.min(retryDelayMs(this.o.callTimeoutMs, this.rt.random), remaining), clock);
    }
  }

  async release(): Promise<void> {
    const hold = this.hold;
    this.hold = undefined;
    // Nothing held: nothing is sent.
    if (!hold) throw failed('not-held', 'no lock is held');
    const key = this.o.lockName;
    let succeeded: boolean;
    try {
      succeeded = await this.client.deleteIfOwned(key, hold.leaseId, hold.revision);
    } catch (err) {
      throw etcdOpError(err);
    } finally {
      // The lease is of no further use either way (and revoking it deletes the key if still ours).
      void hold.lease.revoke().catch(() => undefined);
    }
    // The txn compared lease and create_revision atomically: the key was gone or another client's.
    if (!succeeded) throw failed('not-held', 'the key is gone or belongs to another lease');
  }

  holdLost(): string | undefined {
    const hold = this.hold;
    if (!hold) return undefined;
    if (hold.life.lost) return hold.life.lost;
    if (monotonicNow(this.rt.clock) > hold.life.validUntil) return 'no keep-alive answer proves the lease alive any more';
    return undefined;
  }

  async close(): Promise<void> {
    this.client.close();
  }
}
