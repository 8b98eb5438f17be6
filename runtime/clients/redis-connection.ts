/**
 * Redis connections for the lock clients (single Redis, our Redlock, the npm
 * redlock): ioredis set up so that a fault shows instead of being hidden, and
 * the table that maps its errors to `fail` / `info`.
 *
 * ioredis by default queues commands while disconnected and re-sends
 * unanswered ones after a reconnect: a SET NX sent during a partition could
 * then apply seconds later, after the client has already answered. So: no
 * offline queue (a command while disconnected is refused before it is
 * sent), no resend, no per-request retries, a command timeout and a connect
 * timeout, and an 'error' listener (else ioredis reports "Unhandled error
 * event"). It does reconnect in the background, quickly.
 */
import { Redis } from 'ioredis';
import { parseEndpoint } from './lock-client.js';
import { failed, indeterminate, messageOf, OpError } from './op-error.js';
import { CallTimeoutError, withTimeout } from './time.js';

export function redisConnection(endpoint: string, timeoutMs: number, log: (line: string) => void): Redis {
  const { host, port } = parseEndpoint(endpoint);
  const r = new Redis({
    host,
    port,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    enableReadyCheck: false,
    retryStrategy: (attempt) => Math.min(20 * attempt, 250),
  });
  let lastError = '';
  r.on('error', (err: Error) => {
    // Logged once per distinct message, so a long partition does not flood the log.
    if (err.message !== lastError) log(`redis ${endpoint}: ${err.message}`);
    lastError = err.message;
  });
  r.on('ready', () => {
    if (lastError !== '') log(`redis ${endpoint}: connected`);
    lastError = '';
  });
  return r;
}

/** Connect, waiting at most `timeoutMs`; never throws (ioredis keeps reconnecting in the background). */
export async function connectRedis(r: Redis, timeoutMs: number): Promise<boolean> {
  try {
    await withTimeout(r.connect(), timeoutMs, 'redis connect');
    return true;
  } catch {
    return false;
  }
}

/** Compare-and-delete: delete the key only if it still holds our value. 1 deleted, 0 not ours. */
export const COMPARE_AND_DELETE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/** The error table of one Redis command. */
export function redisOpError(err: unknown): OpError {
  if (err instanceof OpError) return err;
  const msg = messageOf(err);
  // Ours or ioredis's command timeout: the command was written and may have been executed.
  if (err instanceof CallTimeoutError || msg === 'Command timed out') return indeterminate('timeout', msg, err);
  // Without an offline queue ioredis refuses a command while disconnected, before sending anything.
  if (msg.startsWith("Stream isn't writeable")) return failed('not-connected', msg, err);
  // The server answered with an error: a Redis command (or our scripts, which write last) has no effect then.
  if (err instanceof Error && err.name === 'ReplyError') return failed(`redis-error ${msg.split(' ')[0] ?? ''}`.trim(), msg, err);
  // The connection dropped with the command in flight (MaxRetriesPerRequestError, "Connection is closed."): it may have run.
  return indeterminate('connection-lost', msg, err);
}
