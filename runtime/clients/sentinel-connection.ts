/**
 * An ioredis connection that follows the master through Redis Sentinel, set
 * up as redis-connection.ts sets up a plain one (no offline queue, no resend,
 * no per-request retries, timeouts, an 'error' listener), plus what following
 * a master needs, as ioredis documents it:
 *
 * - `sentinels` + `name`: on every (re)connect ioredis asks the Sentinels for
 *   the master's address (SENTINEL get-master-addr-by-name), so a client
 *   reaches the promoted replica once its connection to the old master ends;
 * - `role: 'master'` with the ready check on: a node that answers INFO with
 *   role:slave (a demoted master) is refused and the Sentinels asked again;
 * - `reconnectOnError` on READONLY: a master demoted under an open connection
 *   answers writes with READONLY; the connection is dropped (the command is
 *   not resent, and its READONLY answer stands: it did not apply) so the next
 *   command goes to whoever the Sentinels name.
 *
 * ioredis's `failoverDetector` (subscribe to +switch-master) is left off, its
 * default: a client still connected to an old master that is cut off from the
 * Sentinels keeps using it, as most deployed clients would.
 */
import { Redis } from 'ioredis';
import { SENTINEL_MASTER_NAME } from './sentinel-probes.js';
import { parseEndpoint } from './lock-client.js';

export function sentinelConnection(sentinels: readonly string[], timeoutMs: number, log: (line: string) => void): Redis {
  const backoff = (attempt: number): number => Math.min(20 * attempt, 250);
  const r = new Redis({
    sentinels: sentinels.map(parseEndpoint),
    name: SENTINEL_MASTER_NAME,
    role: 'master',
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    sentinelCommandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    enableReadyCheck: true,
    retryStrategy: backoff,
    sentinelRetryStrategy: backoff,
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 1 : false),
  });
  let lastError = '';
  r.on('error', (err: Error) => {
    if (err.message !== lastError) log(`redis-sentinel ${SENTINEL_MASTER_NAME}: ${err.message}`);
    lastError = err.message;
  });
  r.on('ready', () => {
    const stream = r.stream as { remoteAddress?: string; remotePort?: number } | undefined;
    log(`redis-sentinel ${SENTINEL_MASTER_NAME}: connected to the master at ${stream?.remoteAddress ?? '?'}:${stream?.remotePort ?? '?'}`);
    lastError = '';
  });
  return r;
}
