import { describe, expect, it } from 'vitest';
import { conflictingRoutes, isPrivileged } from '../../runtime/cluster/preflight.js';

describe('conflictingRoutes', () => {
  it('finds routes of other interfaces that overlap the /24', () => {
    const routes = [
      { dst: 'default', dev: 'eth0' },
      { dst: '172.16.0.0/24', dev: 'eth0' },
      { dst: '10.77.0.0/24', dev: 'fc-ctl' },
      { dst: '10.0.0.0/8', dev: 'wg0' },
      { dst: '10.77.0.9', dev: 'tun0' },
      { dst: '10.77.1.0/24', dev: 'eth1' },
    ];
    expect(conflictingRoutes(routes, '10.77.0')).toEqual([
      { dst: '10.0.0.0/8', dev: 'wg0' },
      { dst: '10.77.0.9', dev: 'tun0' },
    ]);
  });
});

describe('isPrivileged', () => {
  it('needs both CAP_NET_ADMIN (12) and CAP_SYS_ADMIN (21)', () => {
    expect(isPrivileged(0x1ffffffffffn)).toBe(true);
    expect(isPrivileged(1n << 12n)).toBe(false);
    expect(isPrivileged((1n << 12n) | (1n << 21n))).toBe(true);
    expect(isPrivileged(0n)).toBe(false);
  });
});
