/**
 * The etcd calls fencecheck's etcd lock client makes, as a port: a lease
 * (granted, kept alive by the library's keep-alive stream, revoked), the two
 * transactions of the recipe and a probe read. `etcd3Port` is the production
 * adapter: the same etcd3 calls the client always made (no blind retries,
 * a deadline on every unary call). The simulation's adapter talks to a
 * simulated cluster and fails with the messages etcd3 / grpc-js give, so
 * etcdOpError maps them the same way.
 */
import { Etcd3, type IOptions } from 'etcd3';

/** The lease's events as etcd3's Lease emits them (followLease reads them). */
export interface LeaseEvents {
  on(event: 'keepaliveEstablished' | 'keepaliveFailed' | 'keepaliveFired', fn: () => void): unknown;
  on(event: 'keepaliveSucceeded', fn: (res: { TTL: string }) => void): unknown;
  on(event: 'lost', fn: (err: Error) => void): unknown;
}

export interface EtcdLease extends LeaseEvents {
  /** The lease's ID once granted. */
  grant(): Promise<string>;
  revoke(): Promise<void>;
  /** Stop keeping it alive, without revoking. */
  release(): void;
}

/** What the create-if-absent txn found: the key taken by us now, or the key already there. */
export interface CreateResult {
  succeeded: boolean;
  /** The txn's header revision. */
  revision: string;
  /** When it did not succeed: the existing key's lease and create_revision. */
  existing?: { lease: string; create_revision: string };
}

export interface EtcdPort {
  /** A read of `key` (the start-up probe). */
  probe(key: string): Promise<unknown>;
  /** A lease of `ttlS` seconds, kept alive automatically. */
  lease(ttlS: number): EtcdLease;
  /** `if create_revision(key) == 0 then put(key, leaseId, lease) else get(key)`. */
  createIfAbsent(key: string, leaseId: string): Promise<CreateResult>;
  /** `if lease(key) == leaseId and create_revision(key) == revision then delete(key)`: whether it succeeded. */
  deleteIfOwned(key: string, leaseId: string, revision: string): Promise<boolean>;
  close(): void;
}

export interface EtcdConnectOptions {
  endpoints: readonly string[];
  callTimeoutMs: number;
}

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

// etcd3 re-sends "recoverable" failures (a deadline exceeded included) up to three times by default. We retry
// ourselves, knowing what we sent. etcd3's connection pool uses only `execute` of this policy.
const NO_RETRY = {
  execute: <T>(fn: (ctx: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> =>
    Promise.resolve().then(() => fn({ signal: new AbortController().signal })),
} as unknown as Policy;

/** The production EtcdPort over etcd3. */
export function etcd3Port(o: EtcdConnectOptions): EtcdPort {
  const client = new Etcd3({
    hosts: o.endpoints.map((e) => `http://${e}`),
    dialTimeout: o.callTimeoutMs,
    // Streams (the keep-alive) live as long as the hold; every unary call gets its own deadline.
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + o.callTimeoutMs }),
    faultHandling: { global: NO_RETRY },
  });
  return {
    probe: (key) => client.get(key).string(),
    lease: (ttlS) => client.lease(ttlS, { autoKeepAlive: true }),
    async createIfAbsent(key, leaseId) {
      const res = await client.if(key, 'Create', '==', 0).then(client.put(key).value(leaseId).lease(leaseId)).else(client.get(key)).commit();
      const kv = res.succeeded ? undefined : res.responses[0]?.response_range.kvs[0];
      return { succeeded: res.succeeded, revision: res.header.revision, ...(kv ? { existing: { lease: kv.lease, create_revision: kv.create_revision } } : {}) };
    },
    async deleteIfOwned(key, leaseId, revision) {
      const res = await client.if(key, 'Lease', '==', leaseId).and(key, 'Create', '==', revision).then(client.delete().key(key)).commit();
      return res.succeeded;
    },
    close: () => client.close(),
  };
}
