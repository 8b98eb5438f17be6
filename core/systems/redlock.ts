/** redlock: fencecheck's Redlock over five independent Redis servers; a random value, no monotonic token. */
import type { LockSystem } from './lock-system.js';

export const redlock: LockSystem = { servers: ['redlock'], connectsTo: 'redlock', token: 'unique', evictable: true };
