/**
 * Integration (real servers, root): the Python reference client for
 * PostgreSQL's advisory locks (clients/python/psycopg2_advisory_client.py,
 * Debian's python3-psycopg2) keeps the client contract on its own PostgreSQL
 * (pgl1) and breaks exclusion through the real PgBouncer in transaction
 * pooling mode (pgb1): the finding (docs/lock-clients.md, "behind
 * PgBouncer"), the same as the built-in client's. Its sequence token stays
 * monotonic either way. Teardown leaves nothing. Needs `npm run build`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { StateFile } from '../../runtime/hosts/state-file.js';
import { checkClientOn } from '../../runtime/client-check/run-client-check.js';
import { commandLine, namedClient } from '../../runtime/runner/client-registry.js';
import { leftovers, NOTHING_LEFT, SHARED_MACHINE, withClusterLock } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-psycopg2-'));
const command = commandLine(namedClient('psycopg2-advisory')!.argv(projectRoot()));
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    backends: ['pg-advisory', 'pgbouncer', 'postgres'],
    clientHosts: ['c1', 'c2'],
    runDir: join(resultsDir, 'cluster'),
    ...SHARED_MACHINE,
  });
});

afterAll(async () => {
  await cluster?.teardown();
  rmSync(resultsDir, { recursive: true, force: true });
});

describe('psycopg2 advisory-lock reference client', () => {
  it('passes client-check on its own PostgreSQL with a monotonic token (no lease: the paused holder keeps the lock)', async () => {
    const r = await checkClientOn(cluster, {
      backend: 'pg-advisory',
      client: command,
      callTimeoutMs: 1000,
      onCheck: (c) => console.log(`  direct ${c.status} ${c.check}: ${c.evidence}`),
    });
    expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(r.token).toBe('monotonic');
    expect(r.checks.find((c) => c.check === 'exclusion')?.status).toBe('pass');
    expect(r.checks.find((c) => c.check === 'token-order')?.status).toBe('pass');
  });

  it('fails exclusion through PgBouncer (transaction pooling), and only exclusion: its token still orders the holders', async () => {
    const r = await checkClientOn(cluster, {
      backend: 'pg-advisory-pooled',
      client: command,
      callTimeoutMs: 1000,
      onCheck: (c) => console.log(`  pooled ${c.status} ${c.check}: ${c.evidence}`),
    });
    expect(r.checks.filter((c) => c.status === 'fail').map((c) => c.check)).toEqual(['exclusion']);
    expect(r.checks.find((c) => c.check === 'token-order')?.status).toBe('pass');
  });

  it('leaves nothing after teardown (PgBouncer included)', async () => {
    const processes = StateFile.read(cluster.stateFile)!.processes;
    expect(processes.some((p) => p.comm === 'pgbouncer')).toBe(true);
    await cluster.teardown();
    expect(await withClusterLock(() => leftovers(processes))).toEqual(NOTHING_LEFT);
  });
});
