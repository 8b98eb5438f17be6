/** redlock: fencecheck's Redlock over five independent Redis servers; a random value, no monotonic token. */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';

export const redlock: LockSystem = { servers: ['redlock'], connectsTo: 'redlock', token: 'unique', evictable: true };

/** Five independent Redis servers; redlock-npm runs on them too. */
export const redlockServer: ServerSystem = { layout: { count: 5, stem: 'redlock', base: 20, ports: { client: 6379 } } };
