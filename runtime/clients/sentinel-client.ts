/**
 * The single-instance Redis lock (SET NX PX, INCR token, Lua compare-and-
 * delete: redis-client.ts) on a replicated Redis, reaching the master through
 * the Sentinels (sentinel-connection.ts), so that after a failover it locks
 * on the promoted replica.
 *
 * Replication is asynchronous: a grant the master acknowledged may not have
 * reached any replica when the master dies, and the promoted replica then
 * grants the same lock again (debate scenario S7). The INCR token lives on
 * the master too, so a failover can also send it backwards: the new master's
 * counter may be behind tokens already handed out (the grant-tokens checker
 * reports the regression).
 *
 * `waitReplicas` (antirez's answer): after the key is set and the token
 * taken, `WAIT waitReplicas timeout`; if fewer replicas acknowledged, the
 * client deletes its key and refuses the grant (fail `not-replicated`). WAIT
 * makes the write neither atomic nor durable: it only says how many replicas
 * had it when WAIT returned.
 */
import { failed, indeterminate } from './op-error.js';
import type { LockClientOptions } from './lock-client.js';
import type { LockBackend } from '../../core/vocabulary.js';
import { COMPARE_AND_DELETE, redisOpError } from './redis-connection.js';
import { RedisLockClient } from './redis-client.js';
import { sentinelConnection } from './sentinel-connection.js';

export class SentinelLockClient extends RedisLockClient {
  override readonly backend: LockBackend = 'redis-sentinel';

  constructor(o: LockClientOptions) {
    super(o, sentinelConnection(o.endpoints, o.callTimeoutMs, o.log));
  }

  protected override async confirmGrant(value: string): Promise<void> {
    const want = this.o.waitReplicas ?? 0;
    if (want <= 0) return;
    let acked: unknown;
    try {
      // Half the call timeout, so WAIT answers before the command timeout cuts it off.
      acked = await this.redis.call('WAIT', want, Math.max(1, Math.floor(this.o.callTimeoutMs / 2)));
    } catch (err) {
      void this.deleteIfOurs(value);
      // We may hold the lock (the key is set): a maybe-hold.
      throw indeterminate('wait-failed', `WAIT ${want}: ${redisOpError(err).message}`, err);
    }
    if (typeof acked === 'number' && acked >= want) return;
    let deleted: unknown;
    try {
      deleted = await this.redis.eval(COMPARE_AND_DELETE, 1, this.o.lockName, value);
    } catch (err) {
      // The key may still be ours until its TTL: we cannot say the lock is not held.
      throw indeterminate('not-replicated', `WAIT ${want} answered ${String(acked)}, and deleting our key failed: ${redisOpError(err).message}`, err);
    }
    // Our key is deleted (1) or already gone (0): nobody holds it under our grant, and we never acted under it.
    throw failed('not-replicated', `WAIT ${want} answered ${String(acked)} replica(s) within the timeout; key deleted (${String(deleted)})`);
  }
}
