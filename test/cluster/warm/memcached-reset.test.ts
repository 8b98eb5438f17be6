import { describe, expect, it } from 'vitest';
import { metadumpKeys } from '../../../runtime/cluster/backends/memcached-reset.js';

// `lru_crawler metadump all` as memcached 1.6.18 (Debian) answered with two items, and after flush_all.
const TWO = 'key=a exp=-1 la=1796119023 cas=1 fetch=no cls=1 size=61\nkey=tooz%2Flock exp=1796119053 la=1796119023 cas=2 fetch=no cls=1 size=61\nEND\r\n';

describe('memcached clean check', () => {
  it('lists the keys a metadump names (URL-decoded), none after a flush', () => {
    expect(metadumpKeys(TWO)).toEqual(['a', 'tooz/lock']);
    expect(metadumpKeys('END\r\n')).toEqual([]);
  });
});

describe('the eviction settings a warm reset puts back', () => {
  it("memcached: the memory limit, the slab mover and -vv as the node starts; an evict window's 8 MB is a problem", async () => {
    const { memcachedSettingProblems } = await import('../../../runtime/cluster/backends/memcached-reset.js');
    expect(memcachedSettingProblems('memcached1', { maxbytes: String(64 * 1024 * 1024), slab_automove: '1', verbosity: '2' })).toEqual([]);
    const left = memcachedSettingProblems('memcached1', { maxbytes: String(8 * 1024 * 1024), slab_automove: '0', verbosity: '0' });
    expect(left).toHaveLength(3);
    expect(left[0]).toBe('memcached1: maxbytes is 8388608, planned 67108864 (an evict window left it)');
  });

  it('Redis: no memory limit, noeviction, no keyspace events; a cache left behind is a problem', async () => {
    const { evictionSettingProblems } = await import('../../../runtime/cluster/backends/redis-reset.js');
    expect(evictionSettingProblems('redis1', { maxmemory: '0', 'maxmemory-policy': 'noeviction', 'notify-keyspace-events': '' })).toEqual([]);
    expect(evictionSettingProblems('redis1', { maxmemory: '1310720', 'maxmemory-policy': 'allkeys-lru', 'notify-keyspace-events': 'xE' })).toEqual([
      'redis1: maxmemory is "1310720", planned "0" (an evict window left it)',
      'redis1: maxmemory-policy is "allkeys-lru", planned "noeviction" (an evict window left it)',
      'redis1: notify-keyspace-events is "xE", planned "" (an evict window left it)',
    ]);
  });
});
