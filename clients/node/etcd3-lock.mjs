#!/usr/bin/env node
/**
 * The etcd3 package's own lock helper (npm etcd3 1.1.2) as a fencecheck client, used as its
 * README shows: `client.lock(name).ttl(seconds).acquire()`, `lock.release()`. Three etcd
 * members (`--backend etcd`).
 *
 * What its source does (node_modules/etcd3/lib/lock.js and lease.js, read for this client):
 * - acquire: grants a lease (kept alive by the library every TTL/3), then one transaction
 *   `if create_revision(key) == 0 then put(key, '', lease)`. If the key exists it revokes the
 *   lease and throws EtcdLockFailedError AT ONCE: it never waits. To wait we retry in our loop.
 * - The transaction's answer (its header revision, which is the key's create_revision and would
 *   be a fencing token) is dropped: acquire resolves to the Lock itself. The only identity it
 *   exposes is `lock.leaseId()`, the lease's id (unique per grant; etcd 3.4 builds lease ids
 *   from the member id and a counter, so they do not grow across members or leader changes).
 * - release: revokes the lease (deleting the key with it).
 * Token: the lease id, as a decimal string: unique, no order.
 */
import { Etcd3, EtcdLockFailedError } from 'etcd3';
import { Fail, Info, log, packageVersion, serve, sleep } from './fencecheck-protocol.mjs';

class Etcd3Lock {
  constructor(config) {
    this.config = config;
    this.client = new Etcd3({
      hosts: config.lockEndpoints.map((e) => `http://${e}`),
      // etcd3 calls have no deadline by default: a partition would block forever.
      defaultCallOptions: () => ({ deadline: Date.now() + config.callTimeoutMs }),
    });
    this.lock = null;
  }

  connect() {}

  async acquire(ttlMs) {
    const deadline = Date.now() + this.config.callTimeoutMs;
    const seconds = Math.max(1, Math.round(ttlMs / 1000));
    for (;;) {
      const lock = this.client.lock(this.config.lockName).ttl(seconds);
      try {
        await lock.acquire();
        this.lock = lock;
        return { token: String(await lock.leaseId()), lease_ms: seconds * 1000 };
      } catch (e) {
        // The transaction answered "the key exists" (and the lease was revoked): definitely not ours.
        if (e instanceof EtcdLockFailedError) {
          if (Date.now() + 20 >= deadline) throw new Fail('held', e.message);
          await sleep(20);
          continue;
        }
        // The lease grant or the transaction timed out or broke: the put may have applied.
        lock.release().catch(() => undefined);
        throw new Info(/deadline/i.test(e.message) ? 'timeout' : 'etcd-error', e.message);
      }
    }
  }

  async release() {
    const lock = this.lock;
    this.lock = null;
    try {
      await lock.release();
    } catch (e) {
      // A revoke of a lease that expired already: the lock was no longer ours.
      if (/lease not found|requested lease not found/i.test(e.message)) throw new Fail('not-held', e.message);
      log(`release: ${e.message}`);
      throw new Info(/deadline/i.test(e.message) ? 'timeout' : 'etcd-error', e.message);
    }
  }

  close() {
    this.client.close();
  }
}

await serve((c) => new Etcd3Lock(c), 'unique', {
  etcd3: await packageVersion('etcd3'),
  '@grpc/grpc-js': await packageVersion('@grpc/grpc-js'),
  pg: await packageVersion('pg'),
});
