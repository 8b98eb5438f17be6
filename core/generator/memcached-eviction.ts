/**
 * The `evict` fault on memcached, the pure part (./eviction.ts says why a
 * cache evicts a lock key). memcached differs from Redis in two ways that
 * decide the plan:
 *
 * - It evicts per slab class: an item is stored in the class whose chunk
 *   fits it, and a full class evicts the least recently used item *of that
 *   class*. Fillers of any other size never evict the lock key, so the
 *   fillers are made the lock key's own size (measured, not assumed: the
 *   cache's `lru_crawler metadump` gives each item's size).
 * - Its memory limit can be lowered at run time (`cache_memlimit`, at least
 *   8 MB), but 8 MB of small items is ~87,000 of them, a turnover of about a
 *   second: longer than a lock is held. So the fault first writes ballast, a
 *   few large items that take all but one of the limit's 1-MB pages into a
 *   class of their own (with the slab mover off, `slabs automove 0`, so no
 *   page wanders back), and the fillers then turn the lock key's class over
 *   within one page: ~11,000 items, about 0.1 s at 100,000 a second (at
 *   most: the rate is what memcached's eviction log can carry,
 *   ./log-paced-fill.ts says why).
 *
 * What was evicted is read from memcached's own log stream (`watch
 * evictions`: one line per evicted item, with its key), as Redis's keyspace
 * notifications give it.
 */
import { FILLER_PREFIX } from './eviction.js';

/** memcached refuses a `cache_memlimit` below this (MEMLIMIT_TOO_SMALL). */
export const MIN_MEMLIMIT_MB = 8;
/** memcached's slab page: the unit it hands memory to a class in. */
export const PAGE_BYTES = 1024 * 1024;
/** A ballast value: four fit in a page (chunks of ~250 KB), all in one large class. */
export const BALLAST_VALUE_BYTES = 250_000;
const BALLAST_PER_PAGE = 4;

/** Filler keys have one width (the probe's too), so that a value length gives one item size. */
export const fillerKey = (n: number): string => `${FILLER_PREFIX}${String(n).padStart(9, '0')}`;
export const PROBE_KEY = `${FILLER_PREFIX}probe0000`;
export const PROBE_VALUE_BYTES = 8;
export const ballastKey = (n: number): string => `${FILLER_PREFIX}ballast${n}`;

export interface MetadumpItem {
  key: string;
  /** The item's whole size in memory (header, key, value), bytes. */
  size: number;
  /** Its slab class. */
  cls: number;
}

/** One line of `lru_crawler metadump all` (`key=… exp=… la=… cas=… fetch=… cls=1 size=70`), or null. */
export function parseMetadumpLine(line: string): MetadumpItem | null {
  const fields = Object.fromEntries(
    line
      .trim()
      .split(' ')
      .map((f) => [f.slice(0, f.indexOf('=')), f.slice(f.indexOf('=') + 1)]),
  );
  const size = Number(fields['size']);
  const cls = Number(fields['cls']);
  if (fields['key'] === undefined || !Number.isSafeInteger(size) || !Number.isSafeInteger(cls)) return null;
  return { key: decodeURIComponent(fields['key']), size, cls };
}

/** The evicted key of a `watch evictions` line (`ts=… gid=… type=eviction key=fc-lock …`), or null for any other line. */
export function evictedKeyOf(line: string): string | null {
  const m = /(?:^|\s)type=eviction\s(?:.*\s)?key=(\S+)/.exec(line);
  return m ? decodeURIComponent(m[1]!) : null;
}

/** `STAT name value` lines as a record. */
export function parseStats(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const m = /^STAT (\S+) (.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

export interface MemcachedPressurePlan {
  memlimitMb: number;
  /** Ballast items to write (large, one class of their own). */
  ballastItems: number;
  /** One filler's value length: its item then has the lock key's size. */
  fillerValueBytes: number;
  /** Most fillers per tick, and the tick: 100,000 a second at most (./log-paced-fill.ts paces them to what the log delivers). */
  batch: number;
  everyMs: number;
  /** Fillers since the cache filled not yet answered by an eviction line, at most (./log-paced-fill.ts). */
  window: number;
  /** A used-up window with no line for this long is opened again, ms. */
  stallMs: number;
  /** A filler's expiry, s: a cache entry's, long against any run. */
  fillerTtlS: number;
}

/**
 * The plan from what the cache holds when the fault starts: the pages already
 * in use, the probe filler's measured size, and the lock service's items
 * (none when no lock is held at that moment: the smallest filler then, the
 * class tooz's short keys and member ids fall in).
 */
export function memcachedPressurePlan(s: { pagesInUse: number; probeSize: number; lockItems: readonly MetadumpItem[] }): MemcachedPressurePlan {
  if (!(Number.isSafeInteger(s.pagesInUse) && s.pagesInUse >= 0)) throw new RangeError(`Expected the pages in use as a count, got ${s.pagesInUse}`);
  if (!(Number.isSafeInteger(s.probeSize) && s.probeSize > PROBE_VALUE_BYTES))
    throw new RangeError(`Expected the probe item's size in bytes, got ${s.probeSize}`);
  const headerBytes = s.probeSize - PROBE_VALUE_BYTES;
  // The most common size among the lock service's items: a lock key, not a stray fence counter.
  const sizes = s.lockItems.map((i) => i.size);
  const lockSize = sizes.length === 0 ? headerBytes + 1 : mode(sizes);
  // Every page but one for the ballast; the fillers' class keeps the one it has (a lock key is in it) or gets the last.
  const ballastPages = Math.max(0, MIN_MEMLIMIT_MB - s.pagesInUse - (s.lockItems.length > 0 ? 0 : 1));
  return {
    memlimitMb: MIN_MEMLIMIT_MB,
    ballastItems: ballastPages * BALLAST_PER_PAGE,
    fillerValueBytes: Math.max(1, lockSize - headerBytes),
    // 200 every 2 ms, of which at most 400 unanswered: an eviction entry takes about 80 bytes of a worker's 64-KB
    // log buffer, and the bipbuf wants 512 free for the next one, so 400 in flight fit with room for the lock
    // clients' own evictions. The stall is longer than memcached's logger thread sleeps when it found nothing (1 s,
    // MAX_LOGGER_SLEEP): a line owed that long is not coming (a filler that took a freed chunk evicted nothing).
    batch: 200,
    everyMs: 2,
    window: 400,
    stallMs: 1100,
    fillerTtlS: 3600,
  };
}

function mode(xs: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}
