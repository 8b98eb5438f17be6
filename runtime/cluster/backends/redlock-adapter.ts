/** redlock: five independent Redis servers (redlock.ts), each reset and put under memory pressure as a redis node is. */
import type { BackendAdapter } from './backend-adapter.js';
import { redisAdapter } from './redis-adapter.js';
import { redlockSpec } from './redlock.js';

export const redlockAdapter: BackendAdapter = { ...redisAdapter, spec: (o) => redlockSpec(o.redlock) };
