/**
 * Every backend's spec says what the rest of fencecheck asks of its servers:
 * the programs the preflight needs, the Debian package, the URL scheme, its
 * warm reset, and, for the backends that have a leader (core/systems), how to
 * name it.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../core/cluster/cluster-plan.js';
import { backendSpec } from '../../runtime/cluster/backends/registry.js';
import { LOCK_BACKENDS } from '../../core/vocabulary.js';
import { leaderBackendOf } from '../../core/systems/registry.js';

describe('backend specs', () => {
  it('each names its programs, package, scheme and warm reset', () => {
    for (const b of BACKENDS) {
      const s = backendSpec(b);
      expect(s.tools.length, b).toBeGreaterThan(0);
      expect(s.debianPackage, b).toMatch(/^[a-z0-9.+-]+$/);
      expect(s.scheme, b).toMatch(/^[a-z]+$/);
      expect(typeof s.reset.reset, b).toBe('function');
      expect(typeof s.reset.check, b).toBe('function');
    }
  });

  it('every backend a leader target resolves to can name its leader, and no other claims to', () => {
    const leaders = new Set(LOCK_BACKENDS.map(leaderBackendOf).filter((b) => b !== undefined));
    expect([...leaders].sort()).toEqual(['etcd', 'redis-sentinel', 'zookeeper']);
    for (const b of BACKENDS) expect(backendSpec(b).leader !== undefined, b).toBe(leaders.has(b as never));
  });
});
