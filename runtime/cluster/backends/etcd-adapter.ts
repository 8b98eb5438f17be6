/** etcd: three members (etcd.ts) and their reset. */
import type { BackendAdapter } from './backend-adapter.js';
import { etcdSpec } from './etcd.js';
import { etcdReset } from './etcd-reset.js';

export const etcdAdapter: BackendAdapter = { spec: () => etcdSpec(), reset: etcdReset };
