/**
 * A simulated ZooKeeper ensemble and the native C client (the ZkAddon port
 * ZkSession runs on) of a simulated client process.
 *
 * The ensemble is one replicated tree that a node serves while it runs and
 * reaches a majority (the quorum): otherwise a request waits there. Nodes
 * carry czxid (a global zxid, +1 per write); EPHEMERAL|SEQUENCE names get
 * the parent's 10-digit counter; an ephemeral belongs to its session and
 * goes with it. A session expires when the ensemble has heard nothing of it
 * (a request or a ping) for its timeout, clamped as the server clamps it to
 * 2..20 ticks of 500 ms (runtime/cluster/backends/zookeeper.ts); expiry deletes
 * its ephemerals and fires their watches. Data survives a restart. ZooKeeper
 * keeps session time on its monotonic clock, so clock faults do not touch it.
 *
 * The client side is the C client's behaviour as zookeeper-session.ts
 * depends on it: it connects to one server at a time, pings every third of
 * the timeout, and reports `connecting` when nothing came for two thirds of
 * it (pending requests end CONNECTIONLOSS), then tries the next server; on
 * reconnecting after its session expired it reports `close` (expired).
 */
import ZooKeeper from 'zookeeper';
import type { ZkAddon, ZkAddonOptions, ZkStat } from '../../runtime/clients/zookeeper-session.js';
import { ZK } from '../../runtime/clients/zookeeper-session.js';
import { ConnectionReset, SimConnection } from './sim-connection.js';
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';
import type { SimProcess } from './sim-process.js';
import { SimQuorumService } from './sim-quorum.js';

const TICK_MS = 500;
const C = ZooKeeper.constants;

interface ZNode {
  czxid: number;
  data: string;
  owner?: number;
  seq: number;
}

interface Session {
  id: number;
  timeoutMs: number;
  lastHeardMs: number;
  client: string;
  closed: boolean;
}

export class SimZkEnsemble extends SimQuorumService {
  private zxid = 0x100000000;
  private nextSession = 1;
  private readonly tree = new Map<string, ZNode>([['/', { czxid: 0, data: '', seq: 0 }]]);
  private readonly sessions = new Map<number, Session>();
  private readonly watches = new Map<string, (() => void)[]>();
  private holder: string | undefined;

  /** Expire every session not heard from within its timeout (the leader's session tracker). */
  private expire(): void {
    for (const s of this.sessions.values()) if (!s.closed && this.now - s.lastHeardMs > s.timeoutMs) this.end(s, false);
  }

  private end(s: Session, byClient: boolean): void {
    s.closed = true;
    for (const [path, n] of [...this.tree]) if (n.owner === s.id) this.remove(path, byClient ? s.client : undefined);
  }

  private remove(path: string, by: string | undefined): void {
    this.tree.delete(path);
    this.zxid++;
    for (const fire of this.watches.get(path) ?? []) fire();
    this.watches.delete(path);
    this.queueChanged(by);
  }

  /** The lock passes when the lowest node of the lock's queue changes. */
  private queueChanged(deletedBy: string | undefined): void {
    const prefix = `${this.lockName}/`;
    const first = [...this.tree.entries()]
      .filter(([p]) => p.startsWith(prefix) && p.slice(prefix.length).startsWith('lock-'))
      .sort((a, b) => a[1].seq - b[1].seq)[0];
    const key = first?.[0];
    if (key === this.holder) return;
    // The holder's node went by its own delete or its own session close: it let go first.
    if (this.holder !== undefined && deletedBy !== undefined) this.truth.released(deletedBy, this.now);
    this.holder = key;
    if (first !== undefined) {
      const owner = [...this.sessions.values()].find((s) => s.id === first[1].owner);
      if (owner !== undefined) this.truth.grant(owner.client, this.now, first[1].czxid);
    }
  }

  /** A session's request or ping reached the ensemble: it lives on, unless it already expired. */
  touch(id: number): Session | undefined {
    this.expire();
    const s = this.sessions.get(id);
    if (s === undefined || s.closed) return undefined;
    s.lastHeardMs = this.now;
    return s;
  }

  connect(id: number | undefined, timeoutMs: number, client: string): Session | undefined {
    this.expire();
    if (id !== undefined) return this.touch(id);
    const s: Session = {
      id: this.nextSession++,
      timeoutMs: Math.min(20 * TICK_MS, Math.max(2 * TICK_MS, timeoutMs)),
      lastHeardMs: this.now,
      client,
      closed: false,
    };
    this.sessions.set(s.id, s);
    return s;
  }

  closeSession(id: number): void {
    const s = this.touch(id);
    if (s) this.end(s, true);
  }

  create(session: Session, path: string, data: string, flags: number): { rc: number; path?: string } {
    const parent = path.slice(0, Math.max(1, path.lastIndexOf('/')));
    const p = this.tree.get(parent);
    if (p === undefined) return { rc: ZK.NONODE };
    const full = flags & C.ZOO_SEQUENCE ? `${path}${String(p.seq).padStart(10, '0')}` : path;
    if (this.tree.has(full)) return { rc: ZK.NODEEXISTS };
    const seq = p.seq++;
    this.tree.set(full, { czxid: ++this.zxid, data, seq, ...(flags & C.ZOO_EPHEMERAL ? { owner: session.id } : {}) });
    if (full.startsWith(`${this.lockName}/`)) this.queueChanged(undefined);
    return { rc: ZK.OK, path: full };
  }

  exists(path: string): { rc: number; stat?: ZkStat } {
    const n = this.tree.get(path);
    return n === undefined ? { rc: ZK.NONODE } : { rc: ZK.OK, stat: { czxid: n.czxid } };
  }

  children(path: string): { rc: number; children?: string[] } {
    if (!this.tree.has(path)) return { rc: ZK.NONODE };
    const prefix = path === '/' ? '/' : `${path}/`;
    return {
      rc: ZK.OK,
      children: [...this.tree.keys()]
        .filter((k) => k.startsWith(prefix) && k !== prefix && !k.slice(prefix.length).includes('/'))
        .map((k) => k.slice(prefix.length)),
    };
  }

  delete(session: Session, path: string): number {
    if (!this.tree.has(path)) return ZK.NONODE;
    this.remove(path, session.client);
    return ZK.OK;
  }

  watch(path: string, fire: () => void): number {
    if (!this.tree.has(path)) return ZK.NONODE;
    (this.watches.get(path) ?? this.watches.set(path, []).get(path)!).push(fire);
    return ZK.OK;
  }
}

type Listener = (...args: unknown[]) => void;

/** The C client of one session, on the simulated ensemble. */
export class SimZkAddon implements ZkAddon {
  state: number = C.ZOO_CONNECTING_STATE;
  timeout: number;
  private session: number | undefined;
  private conn: SimConnection | undefined;
  private next = 0;
  private lastHeard = 0;
  private stopped = false;
  private readonly listeners = new Map<string, Listener[]>();
  private readonly pending = new Set<(rc: number) => void>();

  constructor(
    private readonly net: SimNetwork,
    private readonly host: string,
    private readonly proc: SimProcess,
    private readonly ensemble: SimZkEnsemble,
    private readonly client: string,
    o: ZkAddonOptions,
  ) {
    this.timeout = o.timeout;
  }

  on(event: 'connect' | 'connecting' | 'close', fn: Listener): this {
    (this.listeners.get(event) ?? this.listeners.set(event, []).get(event)!).push(fn);
    return this;
  }

  private emit(event: string, ...args: unknown[]): void {
    for (const fn of this.listeners.get(event) ?? []) fn(this, ...args);
  }

  init(): this {
    this.dial();
    return this;
  }

  private dial(): void {
    if (this.stopped) return;
    const nodes = this.ensemble.nodes;
    const node = nodes[this.next++ % nodes.length]!;
    const conn = new SimConnection(this.net, this.host, this.proc, node, () => this.lost(conn));
    this.conn = conn;
    const started = this.proc.clock.nowNs();
    this.request(conn, () => this.ensemble.connect(this.session, this.timeout, this.client)).then(
      (s) => {
        if (this.conn !== conn || this.stopped) return;
        if (s === undefined) return this.expired();
        this.session = s.id;
        this.timeout = s.timeoutMs;
        this.state = C.ZOO_CONNECTED_STATE;
        this.heard();
        this.emit('connect');
        this.ping(conn);
      },
      () => undefined,
    );
    // No answer within two thirds of the timeout: try the next server.
    this.proc.clock.setTimer(
      (2 * this.timeout) / 3,
      () => this.conn === conn && this.state !== C.ZOO_CONNECTED_STATE && Number(this.proc.clock.nowNs() - started) > 0 && conn.close(),
    );
  }

  private heard(): void {
    this.lastHeard = Number(this.proc.clock.nowNs()) / 1e6;
  }

  /** Pings every third of the timeout; silence for two thirds of it loses the connection. */
  private ping(conn: SimConnection): void {
    const tick = (): void => {
      if (this.conn !== conn || this.stopped) return;
      const session = this.session!;
      if (Number(this.proc.clock.nowNs()) / 1e6 - this.lastHeard > (2 * this.timeout) / 3) return conn.close();
      this.request(conn, () => this.ensemble.touch(session)).then(
        (s) => (this.conn === conn ? (s === undefined ? this.expired() : this.heard()) : undefined),
        () => undefined,
      );
      this.proc.clock.setTimer(this.timeout / 3, tick);
    };
    this.proc.clock.setTimer(this.timeout / 3, tick);
  }

  /** The connection is gone: pending requests end CONNECTIONLOSS, and the client reconnects elsewhere. */
  private lost(conn: SimConnection): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    for (const done of [...this.pending]) done(ZK.CONNECTIONLOSS);
    this.pending.clear();
    if (this.stopped) return;
    const was = this.state;
    this.state = C.ZOO_CONNECTING_STATE;
    if (was === C.ZOO_CONNECTED_STATE) this.emit('connecting');
    this.proc.clock.setTimer(10, () => this.dial());
  }

  private expired(): void {
    this.stopped = true;
    this.state = C.ZOO_EXPIRED_SESSION_STATE;
    this.conn?.close();
    this.emit('close', ZK.SESSIONEXPIRED);
  }

  /** One request at the ensemble once its node has quorum (re-checked every 20 ms while it waits there). */
  private request<T>(conn: SimConnection, atServer: () => T): Promise<T> {
    const node = conn.node;
    const attempt = (): Promise<T> =>
      conn
        .request(() => (this.ensemble.hasQuorum(node) ? { ok: true as const, value: atServer() } : { ok: false as const }))
        .then((r) => (r.ok ? r.value : new Promise<T>((resolve, reject) => this.proc.clock.setTimer(20, () => attempt().then(resolve, reject)))));
    return attempt();
  }

  /** A session request: refused unless connected, else its completion with the server's rc (or CONNECTIONLOSS). */
  private op<T>(cb: (rc: number, result?: T) => void, atServer: (s: { id: number }) => { rc: number; result?: T }): number {
    const conn = this.conn;
    if (this.state !== C.ZOO_CONNECTED_STATE || conn === undefined) return this.stopped ? ZK.INVALIDSTATE : ZK.CONNECTIONLOSS;
    const session = this.session!;
    let done = false;
    const complete = (rc: number, result?: T): void => {
      if (done) return;
      done = true;
      this.pending.delete(complete);
      cb(rc, result);
    };
    this.pending.add(complete);
    this.request(conn, () => {
      const s = this.ensemble.touch(session);
      return s === undefined ? { rc: ZK.SESSIONEXPIRED } : atServer(s);
    }).then(
      (r) => {
        this.heard();
        complete(r.rc, r.result);
      },
      (err: unknown) => complete(err instanceof ConnectionReset ? ZK.CONNECTIONLOSS : ZK.OPERATIONTIMEOUT),
    );
    return ZK.OK;
  }

  a_create(path: string, data: string, flags: number, cb: (rc: number, err: unknown, created: string) => void): number {
    return this.op<string>(
      (rc, p) => cb(rc, undefined, p ?? ''),
      (s) => {
        const r = this.ensemble.create(s as never, path, data, flags);
        return { rc: r.rc, ...(r.path !== undefined ? { result: r.path } : {}) };
      },
    );
  }

  a_exists(path: string, _watch: boolean, cb: (rc: number, err: unknown, stat: ZkStat) => void): number {
    return this.op<ZkStat>(
      (rc, st) => cb(rc, undefined, st ?? { czxid: 0 }),
      () => {
        const r = this.ensemble.exists(path);
        return { rc: r.rc, ...(r.stat ? { result: r.stat } : {}) };
      },
    );
  }

  a_get_children(path: string, _watch: boolean, cb: (rc: number, err: unknown, children: string[]) => void): number {
    return this.op<string[]>(
      (rc, kids) => cb(rc, undefined, kids ?? []),
      () => {
        const r = this.ensemble.children(path);
        return { rc: r.rc, ...(r.children ? { result: r.children } : {}) };
      },
    );
  }

  a_delete_(path: string, _version: number, cb: (rc: number) => void): number {
    return this.op(
      (rc) => cb(rc),
      (s) => ({ rc: this.ensemble.delete(s as never, path) }),
    );
  }

  aw_exists(path: string, watcher: Listener, cb: (rc: number) => void): number {
    const proc = this.proc;
    // The watch event travels back to the client like an answer (over the network, handled when the process runs).
    const fire = (): void => this.net.send(this.ensemble.nodes[0]!.name, this.host, () => proc.run(() => watcher(C.ZOO_DELETED_EVENT, this.state, path)));
    return this.op(
      (rc) => cb(rc),
      () => ({ rc: this.ensemble.watch(path, fire) }),
    );
  }

  close(): void {
    const conn = this.conn;
    const session = this.session;
    this.stopped = true;
    if (conn !== undefined && session !== undefined) conn.post(() => this.ensemble.closeSession(session));
    this.proc.clock.setTimer(1, () => conn?.close());
  }
}
