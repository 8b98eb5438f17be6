/**
 * One ZooKeeper session through the native `zookeeper` package (its bundled
 * C client), as promises with timeouts, and the table of its result codes.
 *
 * Why the native client: the C client notices a silent partition (it reports
 * `connecting` after about 2/3 of the session timeout without an answer),
 * where the pure-JS client stayed "connected" through a whole partition while
 * the server expired the session (see INFRA.md).
 *
 * Session states as this wrapper names them: `connecting` (never connected
 * yet), `connected`, `suspended` (connection lost; the session may still be
 * alive on the server), `closed` (expired, or closed by us: final; a new
 * session is a new ZkSession).
 *
 * Requests are sent only while `connected`: the C client would queue them
 * while reconnecting and send them late, which is the ambiguity we avoid.
 *
 * Why every callback of the addon is deferred (setImmediate): the addon calls
 * our callbacks from inside its own C calls (a connection timeout found in
 * `zookeeper_interest` runs the session event and the connection-loss
 * completions there, before the addon has stopped its libuv poll on the dead
 * socket), and Node runs the promise continuations at the end of each
 * callback, still inside. A continuation that opened a new session there got
 * the dead socket's fd number while the old poll still held it:
 * `uv_poll_init` refused it (EEXIST) and the addon went on with the
 * uninitialised handle: `uv_poll_start: Assertion '!uv__is_closing(handle)'`,
 * SIGABRT or SIGSEGV, about 1 s (2/3 of the session timeout) into a pause,
 * kill or partition. Deferred, our code runs only once the addon's call has
 * returned and its poll state is consistent. (ZooKeeperLockClient also never
 * has two sessions open at once: see its `discard`.)
 */
import ZooKeeper from 'zookeeper';
import { failed, indeterminate, messageOf, OpError } from './op-error.js';
import { CallTimeoutError, withTimeout } from './time.js';
import type { Clock } from '../../core/clock.js';
import { realClock } from '../hosts/real-clock.js';

/**
 * The native addon's API as ZkSession uses it: the port a ZooKeeper session
 * runs on. Production: the `zookeeper` package's class itself; the
 * simulation (test/sim): a simulated C client on a simulated ensemble, with
 * the same callbacks, result codes and states.
 */
export interface ZkAddon {
  on(event: 'connect' | 'connecting' | 'close', fn: (...args: unknown[]) => void): unknown;
  init(o: object): unknown;
  /** The negotiated session timeout, ms. */
  readonly timeout: number;
  /** The C client's state (ZooKeeper.constants.ZOO_CONNECTED_STATE when connected). */
  readonly state: number;
  a_create(path: string, data: string, flags: number, cb: (rc: number, err: unknown, created: string) => void): number;
  a_exists(path: string, watch: boolean, cb: (rc: number, err: unknown, stat: ZkStat) => void): number;
  a_get_children(path: string, watch: boolean, cb: (rc: number, err: unknown, children: string[]) => void): number;
  a_delete_(path: string, version: number, cb: (rc: number) => void): number;
  aw_exists(path: string, watcher: (...args: unknown[]) => void, cb: (rc: number) => void): number;
  close(): void;
}

export interface ZkAddonOptions {
  connect: string;
  timeout: number;
  debug_level: number;
  host_order_deterministic: boolean;
}

/** The production ZkAddon: the native client. */
export const nativeZkAddon = (o: ZkAddonOptions): ZkAddon => new ZooKeeper(o);

export type ZkState = 'connecting' | 'connected' | 'suspended' | 'closed';

/** The ZooKeeper result codes this client meets (zookeeper.h). */
export const ZK = {
  OK: 0,
  CONNECTIONLOSS: -4,
  OPERATIONTIMEOUT: -7,
  BADARGUMENTS: -8,
  INVALIDSTATE: -9,
  NONODE: -101,
  NOAUTH: -102,
  NODEEXISTS: -110,
  SESSIONEXPIRED: -112,
  CLOSING: -116,
} as const;

const CODE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(ZK).map(([k, v]) => [v, k.toLowerCase()]));

/** A request the C client refused (`sent` false: its API call returned the code) or the server answered with a code. */
export class ZkError extends Error {
  constructor(
    readonly rc: number,
    readonly sent: boolean,
    what: string,
  ) {
    super(`${what}: ${CODE_NAMES[rc] ?? `rc ${rc}`}${sent ? '' : ' (not sent)'}`);
    this.name = 'ZkError';
  }
}

/** The error table of one ZooKeeper request. */
export function zkOpError(err: unknown): OpError {
  if (err instanceof OpError) return err;
  // Our timeout: the request may be on the wire or queued for a reconnect.
  if (err instanceof CallTimeoutError) return indeterminate('timeout', err.message, err);
  if (!(err instanceof ZkError)) return indeterminate('zk-error', messageOf(err), err);
  const name = CODE_NAMES[err.rc] ?? `rc${err.rc}`;
  // The C client refused the request before queueing it (closed handle, bad arguments): nothing was sent.
  if (!err.sent) return failed(err.rc === ZK.CONNECTIONLOSS || err.rc === ZK.INVALIDSTATE ? 'not-connected' : `zk-${name}`, err.message, err);
  // The server ended the session: its ephemeral nodes are deleted, so nothing done in it lasts.
  if (err.rc === ZK.SESSIONEXPIRED) return failed('session-expired', err.message, err);
  // The server refused the request itself (bad arguments, no permission): it applied nothing.
  if (err.rc === ZK.BADARGUMENTS || err.rc === ZK.NOAUTH) return failed(`zk-${name}`, err.message, err);
  // Connection loss, operation timeout, closing, or anything else: the request may have been applied.
  return indeterminate(err.rc === ZK.CONNECTIONLOSS ? 'connection-lost' : `zk-${name}`, err.message, err);
}

export interface ZkStat {
  czxid: number;
}

export class ZkSession {
  private readonly zk: ZkAddon;
  private current: ZkState = 'connecting';
  private closeCalled = false;
  private readonly listeners = new Set<(s: ZkState) => void>();

  constructor(
    connect: string,
    readonly sessionTimeoutMs: number,
    private readonly log: (line: string) => void,
    addon: (o: ZkAddonOptions) => ZkAddon = nativeZkAddon,
    private readonly clock: Clock = realClock,
  ) {
    // debug_level 0: the binding prints its own warnings with printf to STDOUT, the protocol channel, and the
    // C client's level is the same switch. This wrapper logs session changes and errors to stderr instead.
    this.zk = addon({ connect, timeout: sessionTimeoutMs, debug_level: 0, host_order_deterministic: false });
    this.zk.on(
      'connect',
      deferred(() => this.set('connected')),
    );
    this.zk.on(
      'connecting',
      deferred(() => this.set(this.current === 'connecting' ? 'connecting' : 'suspended')),
    );
    this.zk.on(
      'close',
      deferred((_zk: unknown, code: unknown) => {
        this.log(`zookeeper: session closed (code ${String(code)})`);
        this.set('closed');
      }),
    );
    this.zk.init({});
  }

  get state(): ZkState {
    return this.current;
  }

  /** The session timeout the server granted (it clamps to 2–20 ticks). */
  get negotiatedTimeoutMs(): number {
    return this.zk.timeout;
  }

  /** Call `fn` on every state change; returns the unsubscribe. */
  onState(fn: (s: ZkState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves true once connected, false after `ms` or when closed. */
  waitConnected(ms: number): Promise<boolean> {
    if (this.current === 'connected') return Promise.resolve(true);
    if (this.current === 'closed') return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (ok: boolean): void => {
        cancel();
        off();
        resolve(ok);
      };
      const cancel = this.clock.setTimer(ms, () => done(false));
      const off = this.onState((s) => (s === 'connected' ? done(true) : s === 'closed' ? done(false) : undefined));
    });
  }

  create(path: string, data: string, flags: number, timeoutMs: number): Promise<string> {
    return this.request(`create ${path}`, timeoutMs, (cb) =>
      this.zk.a_create(path, data, flags, (rc: number, _e: unknown, created: string) => cb(rc, created)),
    );
  }

  /** The node's stat, or null when it does not exist. */
  async stat(path: string, timeoutMs: number): Promise<ZkStat | null> {
    try {
      return await this.request<ZkStat>(`exists ${path}`, timeoutMs, (cb) =>
        this.zk.a_exists(path, false, (rc: number, _e: unknown, stat: ZkStat) => cb(rc, stat)),
      );
    } catch (err) {
      if (err instanceof ZkError && err.rc === ZK.NONODE) return null;
      throw err;
    }
  }

  children(path: string, timeoutMs: number): Promise<string[]> {
    return this.request(`children ${path}`, timeoutMs, (cb) => this.zk.a_get_children(path, false, (rc: number, _e: unknown, kids: string[]) => cb(rc, kids)));
  }

  /** Delete any version of the node: `deleted`, or `no-node` when it was already gone. */
  async remove(path: string, timeoutMs: number): Promise<'deleted' | 'no-node'> {
    try {
      await this.request(`delete ${path}`, timeoutMs, (cb) => this.zk.a_delete_(path, -1, (rc: number) => cb(rc, undefined)));
      return 'deleted';
    } catch (err) {
      if (err instanceof ZkError && err.rc === ZK.NONODE) return 'no-node';
      throw err;
    }
  }

  /**
   * Watch a node for deletion: `gone` resolves when the watch fires (deleted, or any other event on it); null
   * when the node does not exist. (Wrapped in an object: an async function returning a bare promise would wait for it.)
   */
  async watchGone(path: string, timeoutMs: number): Promise<{ gone: Promise<void> } | null> {
    let fired: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (fired = resolve));
    try {
      await this.request(`watch ${path}`, timeoutMs, (cb) =>
        this.zk.aw_exists(
          path,
          deferred(() => fired()),
          (rc: number) => cb(rc, undefined),
        ),
      );
      return { gone };
    } catch (err) {
      if (err instanceof ZkError && err.rc === ZK.NONODE) return null;
      throw err;
    }
  }

  /**
   * End the session: the server deletes its ephemeral nodes at once. The C
   * client blocks up to ~1.5 s for the server's answer, so call it once the
   * answer to the current request is out. Once only (a second close of the
   * addon's handle is undefined behaviour); the state is `closed` at once, as
   * the addon's own close event comes a tick later.
   */
  close(): void {
    if (this.closeCalled) return;
    this.closeCalled = true;
    // A session the addon closed itself (expired) has its handle closed already.
    if (this.current !== 'closed') this.zk.close();
    this.set('closed');
  }

  private set(s: ZkState): void {
    if (s === this.current) return;
    this.current = s;
    for (const fn of this.listeners) fn(s);
  }

  /** One request: refused unless connected, else sent, answered through `cb`, bounded by our timeout. */
  private request<T>(what: string, timeoutMs: number, start: (cb: (rc: number, result: T) => void) => number): Promise<T> {
    // Our state lags the C client's by a tick (deferred events): both must say connected.
    const connected = this.current === 'connected' && this.zk.state === ZooKeeper.constants.ZOO_CONNECTED_STATE;
    if (!connected) return Promise.reject(new ZkError(this.current === 'closed' ? ZK.INVALIDSTATE : ZK.CONNECTIONLOSS, false, what));
    const answered = new Promise<T>((resolve, reject) => {
      const ret = start(deferred((rc: number, result: T) => (rc === ZK.OK ? resolve(result) : reject(new ZkError(rc, true, what)))));
      if (ret !== ZK.OK) reject(new ZkError(ret, false, what));
    });
    return withTimeout(answered, timeoutMs, `zookeeper ${what}`, this.clock);
  }
}

/**
 * `fn`, run on the next turn of the event loop instead of inside the addon's C
 * call that invoked it (see the top of this file for the crash this avoids).
 */
export function deferred<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  return (...args) => void setImmediate(() => fn(...args));
}
