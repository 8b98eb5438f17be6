/**
 * A simulated etcd cluster and the EtcdPort of a simulated client process.
 *
 * The cluster is one replicated state (leases, keys with create_revision,
 * a revision counter) that a node serves only while it runs and reaches a
 * majority of the running nodes (the Raft quorum): otherwise a request waits
 * at that node, as etcd's does for a leader, until quorum returns or its
 * sender gives up. Leases expire on the cluster's monotonic time (etcd's
 * leases do not follow the wall clock); an expired lease deletes its keys.
 * Data survives a node's restart (it is on disk). Modelled exactly as the
 * client sends them: LeaseGrant, the keep-alive stream, LeaseRevoke, the
 * create-if-absent txn, the owned-delete txn, a range read.
 *
 * The client side is etcd3 as etcd-port.ts configures it: a connection to
 * one node at a time (the next one after a reset), a deadline per unary call
 * (DEADLINE_EXCEEDED), no retries, and etcd3's Lease: keep-alive every
 * TTL/3 with its events, a stream that times out after a TTL without answer
 * and restarts 100 ms later, `lost` when the server answers TTL 0 or the
 * last keep-alive is two TTLs old (etcd3 reads Date.now for that).
 */
import type { CreateResult, EtcdLease, EtcdPort } from '../../runtime/clients/etcd-port.js';
import { ConnectionReset, SimConnection } from './sim-connection.js';
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';
import type { SimProcess } from './sim-process.js';
import { SimQuorumService } from './sim-quorum.js';

interface Kv {
  value: string;
  lease: string;
  createRevision: number;
}

/** The error etcd3 gives when a call's deadline passes (etcdOpError: indeterminate timeout). */
const DEADLINE = '4 DEADLINE_EXCEEDED: Deadline exceeded';

export class SimEtcdCluster extends SimQuorumService {
  private revision = 1;
  private nextLease = 0x1000;
  private readonly leases = new Map<string, { ttlMs: number; expiresAtMs: number; owner: string }>();
  private readonly kvs = new Map<string, Kv>();

  private expire(): void {
    for (const [id, l] of this.leases) if (l.expiresAtMs <= this.now) this.dropLease(id, false);
  }

  private dropLease(id: string, revoked: boolean): void {
    const owner = this.leases.get(id)?.owner;
    this.leases.delete(id);
    for (const [k, kv] of this.kvs) {
      if (kv.lease !== id) continue;
      this.kvs.delete(k);
      this.revision++;
      // The holder revoked its own lease: it let go. An expired lease did not.
      if (revoked && k === this.lockName && owner !== undefined) this.truth.released(owner, this.now);
    }
  }

  leaseGrant(ttlS: number, owner: string): string {
    this.expire();
    const id = String(this.nextLease++);
    this.leases.set(id, { ttlMs: ttlS * 1000, expiresAtMs: this.now + ttlS * 1000, owner });
    return id;
  }

  /** A keep-alive: the TTL renewed, in seconds; 0 when the lease is gone. */
  keepAlive(id: string): number {
    this.expire();
    const l = this.leases.get(id);
    if (l === undefined) return 0;
    l.expiresAtMs = this.now + l.ttlMs;
    return l.ttlMs / 1000;
  }

  leaseRevoke(id: string): void {
    this.expire();
    if (!this.leases.has(id)) throw new Error('etcdserver: requested lease not found');
    this.dropLease(id, true);
  }

  createIfAbsent(key: string, leaseId: string, client: string): CreateResult {
    this.expire();
    const kv = this.kvs.get(key);
    if (kv !== undefined)
      return { succeeded: false, revision: String(this.revision), existing: { lease: kv.lease, create_revision: String(kv.createRevision) } };
    // The put names the lease: a lease that is gone fails the txn as a whole.
    if (!this.leases.has(leaseId)) throw new Error('etcdserver: requested lease not found');
    this.revision++;
    this.kvs.set(key, { value: leaseId, lease: leaseId, createRevision: this.revision });
    if (key === this.lockName) this.truth.grant(client, this.now, this.revision);
    return { succeeded: true, revision: String(this.revision) };
  }

  deleteIfOwned(key: string, leaseId: string, revision: string, client: string): boolean {
    this.expire();
    const kv = this.kvs.get(key);
    if (kv === undefined || kv.lease !== leaseId || String(kv.createRevision) !== revision) return false;
    this.kvs.delete(key);
    this.revision++;
    if (key === this.lockName) this.truth.released(client, this.now);
    return true;
  }

  get(key: string): string | null {
    this.expire();
    return this.kvs.get(key)?.value ?? null;
  }
}

/** One client process's etcd3 client on the simulated cluster. */
export class SimEtcdPort implements EtcdPort {
  private conn: SimConnection | undefined;
  private next = 0;
  private closed = false;

  constructor(
    private readonly net: SimNetwork,
    private readonly host: string,
    private readonly proc: SimProcess,
    private readonly cluster: SimEtcdCluster,
    private readonly client: string,
    private readonly callTimeoutMs: number,
  ) {}

  probe(key: string): Promise<unknown> {
    return this.unary(() => this.cluster.get(key));
  }

  lease(ttlS: number): EtcdLease {
    return new SimLease(this, this.proc, ttlS);
  }

  createIfAbsent(key: string, leaseId: string): Promise<CreateResult> {
    return this.unary(() => this.cluster.createIfAbsent(key, leaseId, this.client));
  }

  deleteIfOwned(key: string, leaseId: string, revision: string): Promise<boolean> {
    return this.unary(() => this.cluster.deleteIfOwned(key, leaseId, revision, this.client));
  }

  close(): void {
    this.closed = true;
    this.conn?.close();
  }

  leaseGrant(ttlS: number): Promise<string> {
    return this.unary(() => this.cluster.leaseGrant(ttlS, this.client));
  }

  leaseRevoke(id: string): Promise<void> {
    return this.unary(() => this.cluster.leaseRevoke(id));
  }

  /** A keep-alive on the stream: its answer, or a reset (no deadline: streams have none). */
  keepAlive(id: string): Promise<number> {
    const conn = this.connection();
    if (conn === undefined) return Promise.reject(new Error('14 UNAVAILABLE: No connection established'));
    return this.atQuorum(conn, () => this.cluster.keepAlive(id));
  }

  /** A unary call with its deadline. */
  unary<T>(atServer: () => T): Promise<T> {
    const conn = this.connection();
    // No node to connect to: grpc refuses the call before sending anything.
    if (conn === undefined) return Promise.reject(new Error('14 UNAVAILABLE: No connection established'));
    return new Promise<T>((resolve, reject) => {
      const cancel = this.proc.clock.setTimer(this.callTimeoutMs, () => reject(new Error(DEADLINE)));
      this.atQuorum(conn, atServer).then(
        (r) => (cancel(), resolve(r)),
        (err: unknown) => (cancel(), reject(err)),
      );
    });
  }

  /** Run at the node once it has quorum (re-checked every 20 ms while the request waits there). */
  private atQuorum<T>(conn: SimConnection, atServer: () => T): Promise<T> {
    const node = conn.node;
    const attempt = (): Promise<T> =>
      conn
        .request(() => (this.cluster.hasQuorum(node) ? { ok: true as const, value: atServer() } : { ok: false as const }))
        .then(
          (r) => (r.ok ? r.value : new Promise<T>((resolve, reject) => this.proc.clock.setTimer(20, () => attempt().then(resolve, reject)))),
          (err: unknown) => Promise.reject(err instanceof ConnectionReset ? new Error('14 UNAVAILABLE: Connection dropped') : err),
        );
    return attempt();
  }

  /** The current connection, or one to the next running node. */
  private connection(): SimConnection | undefined {
    if (this.closed) return undefined;
    if (this.conn?.open) return this.conn;
    const nodes = this.cluster.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[(this.next + i) % nodes.length]!;
      if (!n.up) continue;
      this.next = (this.next + i + 1) % nodes.length;
      const conn = new SimConnection(this.net, this.host, this.proc, n, () => undefined);
      this.conn = conn;
      return conn;
    }
    return undefined;
  }
}

type Handlers = { [event: string]: ((arg?: never) => void)[] };

/** etcd3's Lease on the simulated cluster (etcd3/lib/lease.js: grant, keepalive loop, events). */
class SimLease implements EtcdLease {
  private readonly handlers: Handlers = {};
  private readonly id: Promise<string>;
  private state: 'pending' | 'alive' | 'revoked' = 'pending';
  private lastKeepAliveWall = 0;
  private teardown: () => void = () => undefined;

  constructor(
    private readonly port: SimEtcdPort,
    private readonly proc: SimProcess,
    private readonly ttlS: number,
  ) {
    this.id = port.leaseGrant(ttlS).then((id) => {
      if (this.state === 'revoked') return id;
      this.state = 'alive';
      this.lastKeepAliveWall = proc.clock.wallMs();
      this.keepalive();
      return id;
    });
    this.id.catch((err: Error) => this.emitLoss(err));
  }

  on(event: string, fn: (arg: never) => void): this {
    (this.handlers[event] ??= []).push(fn as (arg?: never) => void);
    return this;
  }

  private emit(event: string, arg?: unknown): void {
    for (const fn of this.handlers[event] ?? []) (fn as (a?: unknown) => void)(arg);
  }

  grant(): Promise<string> {
    return this.id;
  }

  async revoke(): Promise<void> {
    this.release();
    const id = await this.id;
    await this.port.leaseRevoke(id);
  }

  release(): void {
    this.state = 'revoked';
    this.teardown();
  }

  private emitLoss(err: Error): void {
    this.release();
    this.emit('lost', err);
  }

  private keepalive(): void {
    if (this.proc.clock.wallMs() - this.lastKeepAliveWall > 2 * 1000 * this.ttlS)
      return this.emitLoss(new Error('We lost connection to etcd and our lease has expired.'));
    let live = true;
    let cancelTimeout = this.proc.clock.setTimer(1000 * this.ttlS, () => failed(new Error('GRPC watch stream has timed out.')));
    const failed = (err: Error): void => {
      if (!live || this.state === 'revoked') return;
      this.emit('keepaliveFailed', err);
      this.teardown();
      this.proc.clock.setTimer(100, () => this.state !== 'revoked' && this.keepalive());
    };
    const fire = (): void => {
      this.emit('keepaliveFired');
      void this.id.then((id) =>
        this.port.keepAlive(id).then(
          (ttl) => {
            if (!live) return;
            if (ttl <= 0) {
              const err = new Error(`lease ${id} expired`);
              this.emit('keepaliveFailed', err);
              return this.emitLoss(err);
            }
            this.lastKeepAliveWall = this.proc.clock.wallMs();
            cancelTimeout();
            cancelTimeout = this.proc.clock.setTimer(1000 * this.ttlS, () => failed(new Error('GRPC watch stream has timed out.')));
            this.emit('keepaliveSucceeded', { TTL: String(ttl) });
          },
          (err: Error) => failed(err),
        ),
      );
    };
    let cancelTick = (): void => undefined;
    const tick = (): void => {
      cancelTick = this.proc.clock.setTimer((1000 * this.ttlS) / 3, () => (fire(), tick()));
    };
    this.teardown = () => {
      live = false;
      this.teardown = () => undefined;
      cancelTimeout();
      cancelTick();
    };
    tick();
    this.emit('keepaliveEstablished');
    fire();
  }
}
