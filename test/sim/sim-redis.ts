/**
 * A simulated Redis server and the RedisPort of a simulated client process,
 * modelling exactly what fencecheck's Redis clients send:
 *
 *   SET key value PX ttl NX   set unless a live key exists; expiry on the
 *                             node's wall clock (Redis's mstime), so a clock
 *                             jump forward expires keys early
 *   INCR key                  the integer +1 (a missing key counts from 0)
 *   EVAL COMPARE_AND_DELETE   the Lua script, atomically: delete the key if
 *                             it holds ARGV[1]; 1, else 0. Any other script
 *                             is an error (nothing else is modelled)
 *
 * Without persistence a restart forgets everything (the lock and the fence
 * counter: tokens start again from 1). Memory pressure (the evict fault)
 * evicts the keys with a TTL at once and, while it lasts, new ones live at
 * most PRESSURE_KEY_LIFE_MS.
 *
 * The client side is ioredis as redis-connection.ts configures it: no
 * offline queue (a command while disconnected fails with ioredis's message
 * before anything is sent), a command timeout (the call timeout), no
 * resend, reconnects after 20 × attempt ms (at most 250). Its errors carry
 * ioredis's messages, so the production redisOpError maps them.
 */
import { COMPARE_AND_DELETE } from '../../runtime/clients/redis-connection.js';
import type { RedisPort } from '../../runtime/clients/redis-port.js';
import { ConnectionReset, SimConnection } from './sim-connection.js';
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';
import type { SimProcess } from './sim-process.js';

/** Who sent a command: the client process's name (the truth ties grants to it). */
export type RedisHook = (node: SimNode, command: 'set' | 'incr' | 'del', key: string, value: string, client: string) => void;

class ReplyError extends Error {
  override name = 'ReplyError';
}

interface Entry {
  value: string;
  expiresAtWallMs?: number;
}

export class SimRedisServer {
  private data = new Map<string, Entry>();
  private pressure = false;
  /** How long a key lasts on a full cache: the real fault's turnover (core/generator/eviction.ts), about 100 ms. */
  static readonly PRESSURE_KEY_LIFE_MS = 100;

  constructor(
    readonly node: SimNode,
    private readonly hook: RedisHook,
  ) {
    // No persistence: a restarted server starts empty.
    node.onRestart(() => (this.data = new Map()));
  }

  private live(key: string): Entry | undefined {
    const e = this.data.get(key);
    if (e?.expiresAtWallMs !== undefined && e.expiresAtWallMs <= this.node.wallMs()) {
      this.data.delete(key);
      return undefined;
    }
    return e;
  }

  /** The live value of `key` now (the truth asks, for Redlock's majority). */
  valueOf(key: string): string | undefined {
    return this.live(key)?.value;
  }

  set(key: string, value: string, ttlMs: number, client: string): 'OK' | null {
    if (this.live(key) !== undefined) return null;
    const life = this.pressure ? Math.min(ttlMs, SimRedisServer.PRESSURE_KEY_LIFE_MS) : ttlMs;
    this.data.set(key, { value, expiresAtWallMs: this.node.wallMs() + life });
    this.hook(this.node, 'set', key, value, client);
    return 'OK';
  }

  incr(key: string, client: string): number {
    const n = Number(this.live(key)?.value ?? '0') + 1;
    if (!Number.isSafeInteger(n)) throw new ReplyError('ERR value is not an integer or out of range');
    this.data.set(key, { value: String(n) });
    this.hook(this.node, 'incr', key, String(n), client);
    return n;
  }

  eval(script: string, args: string[], client: string): number {
    if (script !== COMPARE_AND_DELETE) throw new ReplyError('NOSCRIPT the simulated server models only COMPARE_AND_DELETE');
    const [key, value] = args;
    if (key === undefined || this.live(key)?.value !== value) return 0;
    this.data.delete(key);
    this.hook(this.node, 'del', key, String(value), client);
    return 1;
  }

  /** Memory pressure on or off; on evicts every key with a TTL. The keys evicted. */
  setPressure(on: boolean): string[] {
    this.pressure = on;
    if (!on) return [];
    const evicted = [...this.data.keys()].filter((k) => this.live(k)?.expiresAtWallMs !== undefined);
    for (const k of evicted) this.data.delete(k);
    return evicted;
  }
}

/** ioredis's messages (redisOpError reads them). */
const NOT_WRITEABLE = "Stream isn't writeable and enableOfflineQueue options is false";

/** One client process's ioredis connection to one simulated Redis. */
export class SimRedisPort implements RedisPort {
  private conn: SimConnection | undefined;
  private attempts = 0;
  private reconnecting = false;
  private stopped = false;

  constructor(
    private readonly net: SimNetwork,
    private readonly host: string,
    private readonly proc: SimProcess,
    private readonly server: SimRedisServer,
    private readonly client: string,
    private readonly timeoutMs: number,
  ) {}

  connect(): Promise<void> {
    return this.dial();
  }

  set(key: string, value: string, _px: 'PX', ttlMs: number, _nx: 'NX'): Promise<'OK' | null> {
    return this.command(() => this.server.set(key, value, ttlMs, this.client));
  }

  incr(key: string): Promise<number> {
    return this.command(() => this.server.incr(key, this.client));
  }

  eval(script: string, _numKeys: number, ...args: string[]): Promise<unknown> {
    return this.command(() => this.server.eval(script, args, this.client));
  }

  call(command: string): Promise<unknown> {
    return Promise.reject(new ReplyError(`ERR the simulated server does not model ${command}`));
  }

  disconnect(): void {
    this.stopped = true;
    this.conn?.close();
  }

  /** A handshake (one round trip); a reset or refused connection retries in the background, as ioredis does. */
  private async dial(): Promise<void> {
    const node = this.server.node;
    if (!node.up) {
      this.scheduleReconnect();
      throw new Error(`connect ECONNREFUSED ${node.name}:6379`);
    }
    const conn = new SimConnection(this.net, this.host, this.proc, node, () => {
      if (this.conn === conn) this.conn = undefined;
      this.scheduleReconnect();
    });
    await conn.request(() => undefined);
    this.conn = conn;
    this.attempts = 0;
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnecting) return;
    this.reconnecting = true;
    const wait = Math.min(20 * ++this.attempts, 250);
    this.proc.clock.setTimer(wait, () => {
      this.reconnecting = false;
      this.dial().catch(() => undefined);
    });
  }

  /** A command: refused while disconnected, else sent, answered, timed out or reset. */
  private command<T>(atServer: () => T): Promise<T> {
    const conn = this.conn;
    if (conn === undefined || !conn.open) return Promise.reject(new Error(NOT_WRITEABLE));
    return new Promise<T>((resolve, reject) => {
      const cancel = this.proc.clock.setTimer(this.timeoutMs, () => reject(new Error('Command timed out')));
      conn.request(atServer).then(
        (r) => (cancel(), resolve(r)),
        (err: unknown) => (cancel(), reject(err instanceof ConnectionReset ? new Error('Connection is closed.') : err)),
      );
    });
  }
}
