/**
 * `fencecheck setup`: install the Debian packages that are missing (as root,
 * with apt-get, after apt-get update) and build the clock library. Without
 * root it changes nothing and says the exact command to run.
 */
import { PreflightError } from '../hosts/cluster-errors.js';
import { buildClockLibrary, checkClockLibrary } from './clock-library.js';
import { runCommand } from '../hosts/run-command.js';
import { buildGoClient, GO_PACKAGES, goClientPath } from './build-go-client.js';
import { installNodeClients, nodeClientsDir } from './install-node-clients.js';
import { DOCKER_PACKAGES, ensureDockerDaemon } from './containers/setup-docker.js';

/**
 * What fencecheck needs from Debian. libslf4j-java gives ZooKeeper a logging
 * binding; libc6-dev the headers gcc needs; chromium renders the reports in
 * the report tests (playwright-core drives Debian's build: no browser download),
 * with fonts-liberation listed because it is only a Recommends of chromium.
 * The python3-* packages are the lock libraries of the Python reference
 * clients (clients/python, run by Debian's /usr/bin/python3) and their
 * PostgreSQL driver: a few MB, and the reference clients' integration tests
 * run in CI.
 * pgbouncer is the pooler of the pg-advisory-pooled backend; memcached the
 * cache tooz's memcached driver locks on; python3-tooz (with python3-etcd3gw
 * and python3-pymemcache, its etcd and memcached drivers) the tooz reference
 * clients.
 * redis-sentinel gives the Sentinel program and its documented configuration
 * (fencecheck starts Sentinels as `redis-server sentinel.conf --sentinel`).
 */
export const DEBIAN_PACKAGES = [
  'redis-server',
  'redis-sentinel',
  'etcd-server',
  'etcd-client',
  'zookeeper',
  'libslf4j-java',
  'postgresql',
  'nftables',
  'iproute2',
  'gcc',
  'libc6-dev',
  'util-linux',
  'chromium',
  'fonts-liberation',
  'python3',
  'python3-redis',
  'python3-kazoo',
  'python3-etcd3',
  'python3-psycopg2',
  'pgbouncer',
  'memcached',
  'python3-tooz',
  'python3-etcd3gw',
  'python3-pymemcache',
  // The Python job queues (docs/queues.md): Celery on a Redis broker, RQ.
  'python3-celery',
  'python3-rq',
] as const;

export interface SetupReport {
  installed: string[];
  present: string[];
  clockLibrary: 'built' | 'up to date';
  clockShiftSeconds: number;
}

/** Packages dpkg does not list as installed. */
export async function missingPackages(packages: readonly string[] = DEBIAN_PACKAGES): Promise<string[]> {
  const out = await runCommand('dpkg-query', ['-W', '-f', '${db:Status-Abbrev} ${Package}\\n', ...packages], { reject: false });
  const installed = new Set(
    out.stdout
      .split('\n')
      .filter((l) => l.startsWith('ii'))
      .map((l) => l.trim().split(/\s+/)[1]),
  );
  return packages.filter((p) => !installed.has(p));
}

export function installCommand(packages: readonly string[]): string {
  return `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${packages.join(' ')}`;
}

/** The Java reference client (clients/java/curator-mutex, run in source-file mode: nothing to build). */
export const JAVA_PACKAGES = [
  'default-jdk-headless',
  'libcurator-recipes-java',
  'libcurator-framework-java',
  'libpostgresql-jdbc-java',
  'libjackson2-databind-java',
] as const;

export async function setup(
  log: (line: string) => void = () => undefined,
  options: { go?: boolean; java?: boolean; node?: boolean; docker?: boolean } = {},
): Promise<SetupReport> {
  const wanted = [...DEBIAN_PACKAGES, ...(options.go ? GO_PACKAGES : []), ...(options.java ? JAVA_PACKAGES : []), ...(options.docker ? DOCKER_PACKAGES : [])];
  const missing = await missingPackages(wanted);
  const present = wanted.filter((p) => !missing.includes(p));
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) {
      throw new PreflightError(`Missing Debian packages: ${missing.join(' ')}.`, `Run as root: ${installCommand(missing)}`);
    }
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } as Record<string, string>;
    log(`$ ${installCommand(missing)}`);
    await runCommand('apt-get', ['update'], { env, timeoutMs: 600_000 });
    await runCommand('apt-get', ['install', '-y', ...missing], { env, timeoutMs: 1_800_000 });
  }
  log(missing.length > 0 ? `installed: ${missing.join(' ')}` : `packages: all ${present.length} present`);
  if (options.node) {
    await installNodeClients();
    log(`npm reference clients: installed in ${nodeClientsDir()}/node_modules`);
  }
  if (options.go) log(`Go client (etcd concurrency.Mutex): ${(await buildGoClient()) ? 'built' : 'up to date'} at ${goClientPath()}`);
  if (options.docker) log(await ensureDockerDaemon(log));
  const built = await buildClockLibrary();
  const shift = await checkClockLibrary();
  log(`clock library: ${built ? 'built' : 'up to date'}; check: +${shift} s with a +1 day offset`);
  return { installed: missing, present, clockLibrary: built ? 'built' : 'up to date', clockShiftSeconds: shift };
}
