/**
 * The evict fault's pure part: the memory limit over what the server uses,
 * filler keys told from the lock service's own, keyspace-event flags added to
 * (never replacing) what the server had.
 */
import { describe, expect, it } from 'vitest';
import { EVICT_POLICIES, FILLER_PREFIX, isFiller, pressurePlan } from '../../core/generator/eviction.js';
import { withFlags } from '../../runtime/nemesis/redis-pressure.js';

describe('eviction', () => {
  it('sets the limit just above the memory in use, with fillers that turn it over fast', () => {
    const p = pressurePlan(1_000_000);
    expect(p.maxmemoryBytes).toBe(1_000_000 + 256 * 1024);
    // About 100 ms for the fillers to fill the headroom: well inside a lease of seconds.
    const turnoverMs = ((p.maxmemoryBytes - 1_000_000) / (p.valueBytes * p.batch)) * p.everyMs;
    expect(turnoverMs).toBeGreaterThan(50);
    expect(turnoverMs).toBeLessThan(200);
    expect(pressurePlan(0, 4096).maxmemoryBytes).toBe(4096);
    expect(() => pressurePlan(Number.NaN)).toThrow(RangeError);
  });

  it('tells fillers from lock keys', () => {
    expect(isFiller(`${FILLER_PREFIX}17`)).toBe(true);
    expect(isFiller('fencecheck-lock')).toBe(false);
    expect(isFiller('fencecheck-lock:fence')).toBe(false);
  });

  it('adds the keyevent and evicted flags to what was set', () => {
    expect(withFlags('', 'Ee')).toBe('Ee');
    expect(withFlags('Kx', 'Ee')).toBe('KxEe');
    expect(withFlags('AKE', 'Ee')).toBe('AKEe');
  });

  it('knows the two policies caches run', () => {
    expect([...EVICT_POLICIES]).toEqual(['allkeys-lru', 'volatile-lru']);
  });
});
