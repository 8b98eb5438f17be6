/**
 * A lock on ZooKeeper: the ephemeral-sequential recipe of the ZooKeeper
 * documentation ("Recipes and Solutions: Locks"), on the native client.
 *
 * acquire: create `lockName/lock-<random>-` EPHEMERAL|SEQUENCE; list the
 * children; if ours has the lowest sequence number we hold the lock; else
 * watch the node just before ours (no herd effect) and look again when it
 * goes, until the call timeout; then delete our node and fail. The random
 * part of the name lets a log tie a node to its acquire.
 * Token: our node's czxid (the zxid of its creation): globally increasing,
 * so later holders have larger tokens. The C client gives it as a double;
 * it is exact below 2^53 (an epoch below 2^21), which is checked.
 * Lease: the session timeout (sessionTimeoutMs; the server clamps it to 2–20
 * ticks). release: delete our node.
 *
 * Session loss: when the connection drops (`suspended`) or the session
 * closes, the hold is counted lost at once (holdLost), as Curator advises,
 * and the careful client stops touching the resource. After an indeterminate
 * step, or any failed step once our node exists, the session is closed (the
 * server then deletes our node at once, or when the session times out) and
 * the next acquire opens a new one, after the old one is closed (never two
 * sessions at once: zookeeper-session.ts): a node left behind would
 * otherwise hold the lock for a live session forever.
 */
import ZooKeeper from 'zookeeper';
import type { Acquired, LockClient, LockClientOptions } from './lock-client.js';
import { failed, indeterminate, type OpError } from './op-error.js';
import { monotonicNow, sleep } from './time.js';
import { nativeZkAddon, ZK, ZkError, zkOpError, ZkSession } from './zookeeper-session.js';
import { realRuntime, type ClientRuntime } from './client-runtime.js';

interface ZkHold {
  path: string;
  token: number;
  session: ZkSession;
  lost?: string;
}

/** Lock nodes (`lock-<random>-<sequence>`) in queue order: by their 10-digit sequence suffix. */
export function lockQueue(children: readonly string[]): string[] {
  const seq = (name: string): number => Number(name.slice(name.lastIndexOf('-') + 1));
  return children.filter((c) => c.startsWith('lock-') && Number.isInteger(seq(c))).sort((a, b) => seq(a) - seq(b));
}

export class ZooKeeperLockClient implements LockClient {
  readonly backend = 'zookeeper';
  private readonly sessionTimeoutMs: number;
  private readonly rt: ClientRuntime;
  private session: ZkSession;
  private parentReady = false;
  private hold: ZkHold | undefined;
  /** The session being discarded, until its close has run (the next session opens after it). */
  private closing: Promise<void> | undefined;

  constructor(private readonly o: LockClientOptions) {
    if (!o.lockName.startsWith('/')) throw new RangeError(`a ZooKeeper lock name is an absolute path, got \`${o.lockName}\``);
    this.sessionTimeoutMs = o.sessionTimeoutMs ?? 10_000;
    this.rt = o.runtime ?? realRuntime;
    this.session = this.open();
  }

  async connect(): Promise<void> {
    if (!(await this.session.waitConnected(10_000))) {
      this.o.log('zookeeper: not connected at start (still trying)');
      return;
    }
    this.o.log(`zookeeper: connected, session timeout ${this.session.negotiatedTimeoutMs} ms (asked ${this.sessionTimeoutMs})`);
    await this.ensureParent().catch((err: unknown) => this.o.log(`zookeeper: ${String(err)}`));
  }

  async acquire(ttlMs: number): Promise<Acquired> {
    if (ttlMs !== this.sessionTimeoutMs) this.o.log(`zookeeper: the lease is the session timeout (${this.sessionTimeoutMs} ms), not the ${ttlMs} ms asked`);
    await this.closing;
    if (this.session.state === 'closed') this.session = this.open(); // expired or discarded: a new session
    // Not connected (yet): nothing is sent.
    if (!(await this.session.waitConnected(this.o.callTimeoutMs))) throw failed('not-connected', `session ${this.session.state}`);
    await this.ensureParent();
    const session = this.session;
    const t = this.o.callTimeoutMs;
    const clock = this.rt.clock;
    const deadline = monotonicNow(clock) + t;
    const id = this.rt.randomHex(6);
    const path = await this.step(session, () => session.create(`${this.o.lockName}/lock-${id}-`, id, ZooKeeper.constants.ZOO_EPHEMERAL_SEQUENTIAL, t), false);
    const name = path.slice(path.lastIndexOf('/') + 1);
    const stat = await this.step(session, () => session.stat(path, t));
    // Our ephemeral node is already gone: the session expired; nothing of this acquire remains.
    if (!stat) throw failed('session-lost', `${path} vanished`);
    if (!Number.isSafeInteger(stat.czxid)) {
      this.discard(session);
      throw indeterminate('token-unsafe', `czxid ${stat.czxid} is past 2^53`);
    }
    for (;;) {
      const queue = lockQueue(await this.step(session, () => session.children(this.o.lockName, t)));
      const i = queue.indexOf(name);
      // Our node left the queue before we ever saw it first (its session expired): we never held the lock.
      if (i < 0) throw failed('session-lost', `${path} left the queue`);
      if (i === 0) {
        this.hold = { path, token: stat.czxid, session };
        return { token: stat.czxid, lease_ms: this.sessionTimeoutMs };
      }
      const remaining = deadline - monotonicNow(clock);
      if (remaining <= 0) break;
      const watch = await this.step(session, () => session.watchGone(`${this.o.lockName}/${queue[i - 1]}`, t));
      if (watch) await Promise.race([watch.gone, sleep(remaining, clock)]);
    }
    await this.step(session, () => session.remove(path, t));
    // Our node is deleted and we never saw it first in the queue: we never held the lock.
    throw failed('held', `${this.o.lockName} is held by another client`);
  }

  async release(): Promise<void> {
    const hold = this.hold;
    this.hold = undefined;
    // Nothing held: nothing is sent.
    if (!hold) throw failed('not-held', 'no lock is held');
    // Our session ended: the server deletes our node (at once if it expired the session, else when it times
    // out), but whether the lock was still ours when we asked is not known here.
    if (hold.session !== this.session || hold.session.state === 'closed' || this.closing)
      throw indeterminate('session-closed', 'the session that held the lock is closed');
    if (hold.session.state !== 'connected') {
      // Our node may outlive this suspended session for a while: a new session for the next acquire, so it does
      // not queue behind our own node. The delete is not sent.
      this.discard(hold.session);
      throw failed('not-connected', `session ${hold.session.state}`);
    }
    let r: 'deleted' | 'no-node';
    try {
      r = await hold.session.remove(hold.path, this.o.callTimeoutMs);
    } catch (err) {
      // Whatever the error, our node may still be there (a refused delete left it for sure): end the session.
      this.discard(hold.session);
      throw zkOpError(err);
    }
    // ZooKeeper answered that our node no longer exists: its session expired and the lock passed on.
    if (r === 'no-node') throw failed('not-held', `${hold.path} no longer exists`);
  }

  holdLost(): string | undefined {
    return this.hold?.lost;
  }

  async close(): Promise<void> {
    this.session.close();
  }

  private open(): ZkSession {
    const s = new ZkSession(this.o.endpoints.join(','), this.sessionTimeoutMs, this.o.log, this.rt.zookeeper ?? nativeZkAddon, this.rt.clock);
    this.parentReady = false;
    s.onState((state) => {
      this.o.log(`zookeeper: session ${state}`);
      const hold = this.hold;
      if (hold && hold.session === s && state !== 'connected') hold.lost ??= state === 'closed' ? 'session closed' : 'connection lost (session suspended)';
    });
    return s;
  }

  /**
   * A step of acquire: an error ends the session, so no node of ours lingers. Before our node exists (`created`
   * false) only an indeterminate error can have left one; once it exists, any error does: a request refused
   * while the connection was down (`not-connected`) leaves the node in the queue, where it would hold the lock
   * for a live session that believes it holds nothing, and our next acquires would queue behind it ("held"
   * until the session died).
   */
  private async step<T>(session: ZkSession, fn: () => Promise<T>, created = true): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const e: OpError = zkOpError(err);
      if (created || e.type === 'info') this.discard(session);
      throw e;
    }
  }

  /**
   * Close a session we no longer trust once the current answer is out (closing blocks the event loop for up to
   * ~1.5 s); the next acquire opens a new one after the close. Never two sessions at once: the addon's poll of a
   * dead socket and a new session's socket can share an fd number, and closing the old poll then unregisters
   * the new one (see zookeeper-session.ts).
   */
  private discard(session: ZkSession): void {
    if (this.closing || session.state === 'closed') return;
    this.closing = new Promise((resolve) =>
      this.rt.clock.setTimer(10, () => {
        session.close();
        this.closing = undefined;
        resolve();
      }),
    );
  }

  /** Create the lock's parent path (persistent nodes), once per session. */
  private async ensureParent(): Promise<void> {
    if (this.parentReady) return;
    const parts = this.o.lockName.split('/').filter((p) => p !== '');
    for (let i = 1; i <= parts.length; i++) {
      const path = `/${parts.slice(0, i).join('/')}`;
      try {
        await this.session.create(path, '', ZooKeeper.constants.ZOO_PERSISTENT, this.o.callTimeoutMs);
      } catch (err) {
        if (err instanceof ZkError && err.rc === ZK.NODEEXISTS) continue;
        // No lock node was created yet: this acquire did nothing that matters.
        throw failed('no-parent', `${path}: ${zkOpError(err).message}`, err);
      }
    }
    this.parentReady = true;
  }
}
