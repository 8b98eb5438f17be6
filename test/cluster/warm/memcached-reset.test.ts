import { describe, expect, it } from 'vitest';
import { metadumpKeys } from '../../../runtime/cluster/warm/memcached-reset.js';

// `lru_crawler metadump all` as memcached 1.6.18 (Debian) answered with two items, and after flush_all.
const TWO = 'key=a exp=-1 la=1796119023 cas=1 fetch=no cls=1 size=61\nkey=tooz%2Flock exp=1796119053 la=1796119023 cas=2 fetch=no cls=1 size=61\nEND\r\n';

describe('memcached clean check', () => {
  it('lists the keys a metadump names (URL-decoded), none after a flush', () => {
    expect(metadumpKeys(TWO)).toEqual(['a', 'tooz/lock']);
    expect(metadumpKeys('END\r\n')).toEqual([]);
  });
});
