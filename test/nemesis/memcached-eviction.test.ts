/**
 * The evict fault on memcached, the pure part: metadump and eviction-log lines parsed, fillers sized to the
 * lock key's item (so they share its slab class), ballast taking every page but the fillers' one.
 */
import { describe, expect, it } from 'vitest';
import { FILLER_PREFIX, isFiller } from '../../core/generator/eviction.js';
import {
  ballastKey,
  evictedKeyOf,
  fillerKey,
  memcachedPressurePlan,
  MIN_MEMLIMIT_MB,
  parseMetadumpLine,
  parseStats,
  PROBE_KEY,
  PROBE_VALUE_BYTES,
} from '../../core/generator/memcached-eviction.js';

describe('memcached eviction', () => {
  it('reads a metadump line (memcached 1.6), its key URL-decoded', () => {
    expect(parseMetadumpLine('key=_tooz_lock exp=1796138007 la=1796137997 cas=1 fetch=no cls=1 size=70')).toEqual({ key: '_tooz_lock', size: 70, cls: 1 });
    expect(parseMetadumpLine('key=a%20b exp=-1 la=1 cas=2 fetch=yes cls=3 size=140')).toEqual({ key: 'a b', size: 140, cls: 3 });
    expect(parseMetadumpLine('END')).toBeNull();
    expect(parseMetadumpLine('')).toBeNull();
  });

  it('reads the evicted key of a `watch evictions` line, and nothing else', () => {
    expect(evictedKeyOf('ts=1796138005.139429 gid=2 type=eviction key=_tooz_lock fetch=no ttl=2 la=8 clsid=1 size=1')).toBe('_tooz_lock');
    expect(evictedKeyOf('ts=1.0 gid=3 type=item_get key=x status=found')).toBeNull();
    expect(evictedKeyOf('OK')).toBeNull();
  });

  it('reads STAT lines', () => {
    expect(parseStats('STAT maxbytes 67108864\r\nSTAT slab_automove 1\r\nEND\r\n')).toEqual({ maxbytes: '67108864', slab_automove: '1' });
  });

  it('gives fillers, probe and ballast one prefix and fillers one key width', () => {
    for (const k of [fillerKey(0), fillerKey(123456), PROBE_KEY, ballastKey(3)]) expect(isFiller(k)).toBe(true);
    expect(fillerKey(0).length).toBe(PROBE_KEY.length);
    expect(fillerKey(999_999_999).length).toBe(PROBE_KEY.length);
    expect(fillerKey(7).startsWith(FILLER_PREFIX)).toBe(true);
  });

  it("sizes a filler as the lock key (its item size measured against the probe's), and the ballast so one page is left to them", () => {
    const probeSize = 59 + PROBE_KEY.length + PROBE_VALUE_BYTES;
    const lock = { key: '_tooz_fencecheck-lock', size: 59 + 21 + 8, cls: 1 };
    const p = memcachedPressurePlan({ pagesInUse: 1, probeSize, lockItems: [lock] });
    // The filler's item: the probe's header and key, and a value that brings it to the lock key's size.
    expect(probeSize - PROBE_VALUE_BYTES + p.fillerValueBytes).toBe(lock.size);
    expect(p.memlimitMb).toBe(MIN_MEMLIMIT_MB);
    // The lock key's class already has its page: the ballast takes the other seven.
    expect(p.ballastItems).toBe(7 * 4);
    // No lock held when the fault starts: the smallest filler, and one page left for the fillers' class.
    const idle = memcachedPressurePlan({ pagesInUse: 0, probeSize, lockItems: [] });
    expect(idle.fillerValueBytes).toBe(1);
    expect(idle.ballastItems).toBe(7 * 4);
    // A cache already past the limit gets no ballast.
    expect(memcachedPressurePlan({ pagesInUse: 12, probeSize, lockItems: [] }).ballastItems).toBe(0);
    // A lock key smaller than the smallest filler: still a one-byte value.
    expect(memcachedPressurePlan({ pagesInUse: 1, probeSize, lockItems: [{ key: 'k', size: 61, cls: 1 }] }).fillerValueBytes).toBe(1);
  });

  it("turns one page of the fillers' class over in about a tenth of a second: inside a hold of 200 ms", () => {
    const p = memcachedPressurePlan({ pagesInUse: 1, probeSize: 59 + PROBE_KEY.length + PROBE_VALUE_BYTES, lockItems: [] });
    const chunksPerPage = Math.floor((1024 * 1024) / 96);
    const turnoverMs = (chunksPerPage / p.batch) * p.everyMs;
    expect(turnoverMs).toBeGreaterThan(50);
    expect(turnoverMs).toBeLessThan(200);
  });

  it('refuses bad measurements', () => {
    expect(() => memcachedPressurePlan({ pagesInUse: -1, probeSize: 100, lockItems: [] })).toThrow(RangeError);
    expect(() => memcachedPressurePlan({ pagesInUse: 0, probeSize: 3, lockItems: [] })).toThrow(RangeError);
  });
});
