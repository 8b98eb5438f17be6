/** etcd: three members, a lease and a create-revision key; the revision is a monotonic token. */
import type { LockSystem } from './lock-system.js';

export const etcd: LockSystem = {
  servers: ['etcd'],
  connectsTo: 'etcd',
  token: 'monotonic',
  leader: 'etcd',
  faultsNotApplicable: (nemesis) =>
    nemesis.includes('clock')
      ? 'etcd is a Go program and ignores LD_PRELOAD, so fencecheck cannot shift its wall clock without changing the real system clock (which it never does); and etcd leases use the monotonic clock anyway'
      : undefined,
};
