/**
 * ioredis set up so that a fault shows instead of being hidden (as fencecheck's own
 * clients do): no offline queue (a command while disconnected is refused before it is
 * sent), no resend after a reconnect (a SET NX from a partition must not apply seconds
 * later), a command and a connect timeout, and an 'error' listener.
 */
import { Redis } from 'ioredis';
import { Fail, Info, log, withTimeout } from './fencecheck-protocol.mjs';

export function ioredisConnection(endpoint, timeoutMs) {
  const at = endpoint.lastIndexOf(':');
  const r = new Redis({
    host: endpoint.slice(0, at),
    port: Number(endpoint.slice(at + 1)),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    enableReadyCheck: false,
    retryStrategy: (attempt) => Math.min(20 * attempt, 250),
  });
  let last = '';
  r.on('error', (e) => {
    if (e.message !== last) log(`redis ${endpoint}: ${e.message}`);
    last = e.message;
  });
  r.on('ready', () => {
    last = '';
  });
  return r;
}

/** Best effort, as the built-in clients: a server not reachable yet makes ops fail, not the start. */
export async function connectAll(conns, timeoutMs) {
  await Promise.all(
    conns.map((c) => withTimeout(c.connect(), timeoutMs, () => new Error('connect timeout')).catch((e) => log(`redis not reachable yet: ${e.message}`))),
  );
}

/**
 * An error ioredis raised for a command: refused before sending (offline: the offline queue is
 * off, so "Stream isn't writeable") is a definite fail (nothing of it reached Redis); a timeout or a broken connection may have let
 * the command land.
 */
export function ioredisError(e) {
  const msg = String(e?.message ?? e);
  if (/Stream isn't writeable|enableOfflineQueue/.test(msg)) return new Fail('not-connected', msg);
  return new Info(/timed out|timeout/i.test(msg) ? 'timeout' : 'connection-lost', msg);
}
