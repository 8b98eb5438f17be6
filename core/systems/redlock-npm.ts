/** redlock-npm: the npm redlock package on the same five Redis nodes as redlock; a random value as its token. */
import type { LockSystem } from './lock-system.js';

export const redlockNpm: LockSystem = { servers: ['redlock'], connectsTo: 'redlock', token: 'unique', evictable: true };
