/**
 * The lock services added for issue 21, on paper: pg-advisory (its own
 * PostgreSQL, apart from the resource's), PgBouncer in transaction pooling
 * in front of it, memcached; their addresses, configuration and data dirs.
 */
import { describe, expect, it } from 'vitest';
import { memcachedArgs } from '../../runtime/cluster/backends/memcached.js';
import { PGBOUNCER_POOL_SIZE, pgbouncerIni } from '../../runtime/cluster/backends/pgbouncer.js';
import { backendSpec } from '../../runtime/cluster/backends/registry.js';
import { nodeDataDir } from '../../runtime/hosts/paths.js';
import { planCluster, type NodePlan } from '../../core/cluster/cluster-plan.js';

const plan = planCluster({ backends: ['pgbouncer', 'pg-advisory', 'postgres', 'memcached'] });
const node = (name: string): NodePlan => plan.nodes.find((n) => n.name === name) as NodePlan;

describe('pg-advisory and pgbouncer', () => {
  it('are hosts of their own, apart from the resource pg1', () => {
    expect(plan.nodes.map((n) => `${n.name} ${n.ip}:${n.port}`)).toEqual([
      'pgb1 10.77.0.76:6432',
      'pgl1 10.77.0.71:5432',
      'pg1 10.77.0.51:5432',
      'mc1 10.77.0.81:11211',
    ]);
    expect(backendSpec('pg-advisory').backend).toBe('pg-advisory');
    expect(backendSpec('pg-advisory').sysvSharedMemory).toBe(true);
  });

  it('configures PgBouncer for transaction pooling in front of pgl1, with a small pool', () => {
    const ini = pgbouncerIni(node('pgb1'), plan, '/d');
    const lines = ini.split('\n');
    expect(lines).toContain('postgres = host=10.77.0.71 port=5432 dbname=postgres user=postgres');
    expect(lines).toContain('pool_mode = transaction');
    expect(lines).toContain(`default_pool_size = ${PGBOUNCER_POOL_SIZE}`);
    expect(lines).toContain('listen_addr = 10.77.0.76');
    expect(lines).toContain('listen_port = 6432');
    expect(lines).toContain('auth_file = /d/userlist.txt');
    expect(() => pgbouncerIni(node('pgb1'), planCluster({ backends: ['pgbouncer'] }), '/d')).toThrow(/no pg-advisory node/);
  });

  it('runs PgBouncer as postgres (it refuses root), its data with the other non-root servers', () => {
    const spec = backendSpec('pgbouncer');
    expect(spec.comm).toBe('pgbouncer');
    expect(backendSpec('pgbouncer').tools).toEqual(['pgbouncer', 'setpriv']);
    expect(nodeDataDir('/run', node('pgb1'))).toMatch(/fencecheck-data-[0-9a-f]{12}\/pgb1$/);
    expect(nodeDataDir('/run', node('pgl1'))).toMatch(/fencecheck-data-[0-9a-f]{12}\/pgl1$/);
    expect(nodeDataDir('/run', node('mc1'))).toBe('/run/data/mc1');
  });
});

describe('memcached', () => {
  it('listens on its node only, TCP only, with a fixed memory limit, as nobody', () => {
    expect(memcachedArgs(node('mc1'))).toEqual(['-l', '10.77.0.81', '-p', '11211', '-U', '0', '-m', '64', '-t', '2', '-u', 'nobody', '-vv']);
    expect(backendSpec('memcached').teardown).toEqual({ signal: 'SIGKILL', graceMs: 0 });
  });
});
