/** redis-sentinel: a master, two replicas and three Sentinels (redis-sentinel.ts), and their reset. */
import type { BackendAdapter } from './backend-adapter.js';
import { redisSentinelSpec } from './redis-sentinel.js';
import { sentinelReset } from './sentinel-reset.js';

export const redisSentinelAdapter: BackendAdapter = { spec: (o) => redisSentinelSpec(o.redisSentinel), reset: sentinelReset };
