/**
 * One descriptor per backend (issue 34): a backend's name, as a string literal, appears in production code (core/,
 * runtime/, src/) only in its own files (its LockSystem and ServerSystem in core/systems, its spec, reset and adapter
 * in runtime/cluster/backends, its lock client in runtime/clients), in the registries that key those by name, and in
 * the exceptions listed below, each with its reason. A new `'pg-advisory'` in an unrelated file fails here: look it up
 * through the backend's descriptor (core/systems) or adapter (runtime/cluster/backends/registry.ts) instead.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './import-graph.js';
import { inFoldersWithStem, PRODUCTION, productionFiles, staleExceptions, strayNames as strayOf, type NameGuard } from './name-guard.js';

const ROOT = repoRoot(fileURLToPath(import.meta.url));
/** The folders a backend's own files live in: its descriptor, its server code, its lock client. */
const OWN_FOLDERS = ['core/systems', 'runtime/cluster/backends', 'runtime/clients'];

/** The names guarded, each with the file-name stems of its own files in OWN_FOLDERS. */
const OWN_STEMS = {
  'pg-advisory': ['pg-advisory', 'pg-session-lock'],
  'pg-advisory-pooled': ['pg-advisory'],
  pgbouncer: ['pgbouncer', 'pg-advisory-pooled'],
  memcached: ['memcached'],
  'redis-sentinel': ['redis-sentinel', 'sentinel'],
  zookeeper: ['zookeeper'],
  'redlock-npm': ['redlock-npm'],
} as const satisfies Record<string, readonly string[]>;
type Guarded = keyof typeof OWN_STEMS;
const GUARDED = Object.keys(OWN_STEMS) as Guarded[];

/** The registries: each keys its descriptors by name, so every name may appear in them. */
const REGISTRIES = [
  'core/systems/registry.ts', // LOCK_SYSTEMS: the lock systems by name
  'core/systems/servers.ts', // SERVER_SYSTEMS: the servers by name (BackendName)
  'runtime/cluster/backends/registry.ts', // BACKEND_ADAPTERS: the adapters by name
  // The lock clients by name: runtime/clients may import core only (runtime/cluster imports it), and a client process
  // loads only its own backend's library, so this table cannot move into the adapters.
  'runtime/clients/create-lock-client.ts',
];

/** The files that still name a backend, and why. Each must still name it (a stale exception fails too). */
const EXCEPTIONS: Record<string, { names: readonly Guarded[]; why: string }> = {
  // Catalogues that choose a backend for a run, as a user would on the command line: the name is their data.
  'runtime/runner/client-registry.ts': {
    names: ['pg-advisory', 'pg-advisory-pooled', 'memcached', 'redis-sentinel', 'zookeeper'],
    why: 'the reference clients (clients/): the backends each library talks to',
  },
  'src/compare/libraries-matrix.ts': {
    names: ['pg-advisory', 'pg-advisory-pooled', 'memcached', 'redis-sentinel', 'zookeeper'],
    why: "the libraries comparison: each library's backend",
  },
  'src/scenarios/client-scenarios.ts': { names: ['zookeeper'], why: 'scenario variants run on a backend' },
  'src/scenarios/consensus-scenarios.ts': { names: ['pg-advisory', 'pg-advisory-pooled', 'zookeeper'], why: 'scenario variants run on a backend' },
  'src/scenarios/service-scenarios.ts': { names: ['zookeeper'], why: 'scenario variants run on a backend' },
  'src/scenarios/sentinel-scenarios.ts': { names: ['redis-sentinel'], why: 'the Sentinel failover scenarios' },
  'src/scenarios/redlock-scenarios.ts': { names: ['redlock-npm'], why: 'the Redlock scenarios compare the npm package' },
  'src/cli/compare-command.ts': { names: ['zookeeper'], why: "compare's default --backends" },
  // Programs and packages spelt as the backend is: these name the program, not the backend.
  'runtime/hosts/binaries.ts': { names: ['memcached', 'zookeeper', 'pgbouncer'], why: 'programs and their Debian packages' },
  'runtime/cluster/setup.ts': { names: ['memcached', 'redis-sentinel', 'zookeeper', 'pgbouncer'], why: 'the Debian packages setup installs' },
  'runtime/cluster/namespace-doctor.ts': { names: ['memcached', 'pgbouncer'], why: 'the programs doctor looks for' },
  'runtime/clients/library-versions.ts': { names: ['zookeeper'], why: 'the npm package `zookeeper`' },
  // Backend-specific behaviour outside the backends' modules.
  'runtime/runner/sentinel-faults.ts': { names: ['redis-sentinel'], why: 'partitions shaped around the Sentinels’ current master' },
  'src/cli/up-command.ts': { names: ['redis-sentinel'], why: '`up` prints the master the Sentinels name' },
  'src/run/run-queue-test.ts': {
    names: ['pg-advisory', 'redis-sentinel'],
    why: "a PostgreSQL queue's own server (pgl1), apart from the resource's; a Sentinel-backed queue's current master",
  },
  // A job queue's server is data there (QueueServer), the lock backend reused as the queue's Redis behind Sentinels.
  'core/queue/queue-libraries.ts': { names: ['redis-sentinel'], why: "the queue servers' names (QueueServer)" },
  'core/queue/queue-options.ts': { names: ['redis-sentinel'], why: 'which libraries and faults a Sentinel-backed queue takes' },
  'core/queue/queue-matrix.ts': { names: ['redis-sentinel'], why: "the matrix's server kill behind Sentinels (a failover) runs on that queue server" },
};

const GUARD: NameGuard<Guarded> = {
  names: GUARDED,
  isOwn: (file, name) => inFoldersWithStem(file, OWN_FOLDERS, OWN_STEMS[name]),
  registries: REGISTRIES,
  exceptions: EXCEPTIONS,
};

/** Each `file: name` where a name appears outside its own files, the registries and the exceptions. */
export function strayNames(files: ReadonlyMap<string, string>): string[] {
  return strayOf(GUARD, files);
}

describe('backend names in production code', () => {
  const files = productionFiles(ROOT);

  it('reads every production folder', () => {
    for (const top of PRODUCTION) expect([...files.keys()].filter((f) => f.startsWith(`${top}/`)).length, top).toBeGreaterThan(10);
  });

  it("appear only in each backend's own files, the registries and the listed exceptions", () => {
    expect(strayNames(files)).toEqual([]);
  });

  it('lists no stale exception: each still names what it lists', () => {
    expect(staleExceptions(GUARD, files)).toEqual([]);
  });

  it('fails on a new literal in an unrelated file, and not in its own files or a registry', () => {
    const quoted = (n: string) => ['backend: ', n, ''].join("'");
    const synthetic = new Map([
      ['runtime/runner/worker.ts', quoted('pg-advisory')],
      ['src/cli/up-command.ts', quoted('zookeeper')],
      ['runtime/cluster/backends/zookeeper-adapter.ts', quoted('zookeeper')],
      ['core/systems/servers.ts', quoted('memcached')],
    ]);
    expect(strayNames(synthetic)).toEqual(['runtime/runner/worker.ts: pg-advisory', 'src/cli/up-command.ts: zookeeper']);
  });
});
