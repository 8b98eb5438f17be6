/** etcd: three members, a lease and a create-revision key; the revision is a monotonic token. */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';

export const etcd = {
  servers: ['etcd'],
  connectsTo: 'etcd',
  token: 'monotonic',
  leader: 'etcd',
  // etcd3's keep-alive and the Go client's session renew the lease every third of its TTL.
  renewalShare: 1 / 3,
  faultsNotApplicable: (nemesis) =>
    nemesis.includes('clock')
      ? 'etcd is a Go program and ignores LD_PRELOAD, so fencecheck cannot shift its wall clock without changing the real system clock (which it never does); and etcd leases use the monotonic clock anyway'
      : undefined,
} satisfies LockSystem;

export const etcdServer: ServerSystem = { layout: { count: 3, stem: 'etcd', base: 30, ports: { client: 2379, peer: 2380 } } };
