/** none: no lock service at all; every client goes straight to the resource (the database's own concurrency control). */
import type { LockSystem } from './lock-system.js';

export const none: LockSystem = { servers: [], token: 'unique' };
