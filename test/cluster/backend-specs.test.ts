/**
 * Every backend's spec says what the rest of fencecheck asks of its servers:
 * the programs the preflight needs, the Debian package, the URL scheme, its
 * warm reset, the server options a kept cluster must agree on, and, for the
 * backends that have a leader (core/systems), how to name it.
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

  it('each names the server options it was started with, and a changed option changes them', () => {
    for (const b of BACKENDS) for (const v of Object.values(backendSpec(b).shape)) expect(v, b).toMatch(/\S/);
    const changed: [string, () => Readonly<Record<string, string>>, () => Readonly<Record<string, string>>][] = [
      ['redis', () => backendSpec('redis').shape, () => backendSpec('redis', { redis: { persistence: 'aof-always' } }).shape],
      ['redlock', () => backendSpec('redlock').shape, () => backendSpec('redlock', { redlock: { persistence: 'aof-everysec' } }).shape],
      ['zookeeper', () => backendSpec('zookeeper').shape, () => backendSpec('zookeeper', { zookeeper: { tickTimeMs: 2000 } }).shape],
      ['redis-sentinel', () => backendSpec('redis-sentinel').shape, () => backendSpec('redis-sentinel', { redisSentinel: { minReplicas: 1 } }).shape],
    ];
    for (const [b, before, after] of changed) {
      expect(Object.keys(before()).length, b).toBeGreaterThan(0);
      expect(after(), b).not.toEqual(before());
    }
    // Options of one backend do not move another's.
    expect(backendSpec('redis', { zookeeper: { tickTimeMs: 2000 } }).shape).toEqual(backendSpec('redis').shape);
  });
});
