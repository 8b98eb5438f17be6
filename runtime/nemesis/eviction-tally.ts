/**
 * What one evict window evicted, whichever cache it fills: the first eviction
 * (the cache is full, the fault in force: `start()` waits for it), and each
 * evicted key that is not a filler (the lock service's own), counted and told
 * to the runner at once so the history records it at that moment.
 */
import { isFiller } from '../../core/generator/eviction.js';

export class EvictionTally {
  private readonly lockKeys: Record<string, number> = {};
  private first: (() => void) | undefined;
  /** Resolves at the window's first eviction. */
  readonly full: Promise<void>;

  constructor(private readonly onLockKeyEvicted: (key: string) => void) {
    this.full = new Promise<void>((resolve) => (this.first = resolve));
  }

  evicted(key: string): void {
    this.first?.();
    this.first = undefined;
    if (isFiller(key)) return;
    this.lockKeys[key] = (this.lockKeys[key] ?? 0) + 1;
    this.onLockKeyEvicted(key);
  }

  /** The lock service's keys evicted so far, each with how often. */
  counts(): Record<string, number> {
    return { ...this.lockKeys };
  }
}
