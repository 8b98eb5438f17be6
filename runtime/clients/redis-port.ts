/**
 * The Redis commands fencecheck's Redis clients send (single Redis,
 * Sentinel, our Redlock), as a port: exactly SET NX PX, INCR, EVAL of our
 * scripts, WAIT (through `call`), and the connection's lifecycle. The
 * production adapter is an ioredis connection itself (redis-connection.ts),
 * so production sends what it always sent; the simulation's adapter talks to
 * a simulated server and fails as ioredis fails (the same messages, so
 * redisOpError maps them the same way).
 */

export interface RedisPort {
  connect(): Promise<void>;
  /** `SET key value PX ttl NX`: 'OK', or null when the key exists. */
  set(key: string, value: string, px: 'PX', ttlMs: number, nx: 'NX'): Promise<'OK' | null>;
  incr(key: string): Promise<number>;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
  /** Any other command (WAIT). */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  disconnect(): void;
}
