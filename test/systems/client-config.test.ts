/**
 * The one ClientConfig builder (core/client-config.ts): every backend's lock name as its namespace spells it,
 * the system's own client options carried, and the run, client-check and the simulation all build through it
 * (no second copy of the ZooKeeper lock-name rule in their sources).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientConfigOf, RUN_LOCK_NAME, type ClientConfigInput } from '../../core/client-config.js';
import { LOCK_SYSTEMS, type LockBackend } from '../../core/systems/registry.js';

const base: Omit<ClientConfigInput, 'system'> = {
  client: 1,
  lockEndpoints: ['10.0.0.1:1'],
  lockBase: RUN_LOCK_NAME,
  resource: 'none',
  pg: { host: 'h', port: 5432, user: 'postgres', database: 'postgres' },
  resourceKey: 'counter',
  callTimeoutMs: 500,
};

describe('clientConfigOf', () => {
  it('names the lock as each backend spells it: a ZooKeeper znode path, the base name elsewhere', () => {
    for (const backend of Object.keys(LOCK_SYSTEMS) as LockBackend[]) {
      const c = clientConfigOf({ ...base, system: { backend } });
      expect(c.backend).toBe(backend);
      expect(c.lockName, backend).toBe(backend === 'zookeeper' ? `/${RUN_LOCK_NAME}` : RUN_LOCK_NAME);
    }
  });

  it("carries the system's own client options to its clients only (redis-sentinel's WAIT)", () => {
    expect(clientConfigOf({ ...base, system: { backend: 'redis-sentinel', waitReplicas: 2 } }).waitReplicas).toBe(2);
    expect(clientConfigOf({ ...base, system: { backend: 'redis', waitReplicas: 2 } })).not.toHaveProperty('waitReplicas');
  });

  it('is the builder the run, client-check and the simulation use (none spells a lock name itself)', () => {
    for (const file of ['src/run/run-lock-test.ts', 'runtime/client-check/run-client-check.ts', 'test/sim/simulate-run.ts']) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).toContain('clientConfigOf(');
      expect(text, file).not.toMatch(/lockName:\s/);
      expect(text, file).not.toMatch(/=== 'zookeeper' \?/);
    }
  });
});
