/**
 * What a lock client process runs on besides its own code: its clock, its
 * randomness (lock values, retry jitter) and its transports to the servers,
 * each a small port with a production adapter over the real library:
 *
 *   redis       RedisPort (redis-port.ts)         ioredis
 *   etcd        EtcdPort (etcd-port.ts)           etcd3
 *   zookeeper   ZkAddon (zookeeper-session.ts)    the native zookeeper addon
 *   pg          Db (resource-modes.ts)            node-postgres (resource.ts PgDb)
 *
 * A client process uses the real runtime: the real clock, Math.random and
 * crypto, and each backend's adapter loaded by its own client file (a client
 * loads only its backend's library). The simulation (test/sim) passes a
 * runtime of simulated transports on its virtual clock and a seeded
 * generator, so the real lock clients and the real request loop are what it
 * runs.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { realClock } from '../hosts/real-clock.js';
import type { EtcdConnectOptions, EtcdPort } from './etcd-port.js';
import type { RedisPort } from './redis-port.js';
import type { Db } from '../../runtime/clients/resource-modes.js';
import type { PgEndpoint } from '../../runtime/clients/resource.js';
import type { ZkAddon, ZkAddonOptions } from '../../runtime/clients/zookeeper-session.js';

export interface ClientRuntime {
  clock: Clock;
  /** Uniform in [0, 1): retry jitter. */
  random(): number;
  /** `bytes` random bytes as hex: lock values, node names. */
  randomHex(bytes: number): string;
  /** Transports; absent: the real library's adapter. */
  redis?: (endpoint: string, timeoutMs: number, log: (line: string) => void) => RedisPort;
  etcd?: (o: EtcdConnectOptions) => EtcdPort;
  zookeeper?: (o: ZkAddonOptions) => ZkAddon;
  pg?: (endpoint: PgEndpoint, callTimeoutMs: number, log: (line: string) => void) => Db & { close(): Promise<void> };
}

export const realRuntime: ClientRuntime = {
  clock: realClock,
  random: Math.random,
  randomHex: (bytes) => randomBytes(bytes).toString('hex'),
};
