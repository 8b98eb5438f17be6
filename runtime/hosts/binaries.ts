/**
 * Find the programs and jars the servers need, and say which Debian package
 * provides each one that is missing.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PreflightError } from './cluster-errors.js';
import type { BackendName } from '../../core/cluster/cluster-plan.js';

export type Tool =
  | 'ip'
  | 'nft'
  | 'gcc'
  | 'setpriv'
  | 'redis-server'
  | 'etcd'
  | 'etcdctl'
  | 'java'
  | 'zookeeper.jar'
  | 'slf4j-simple.jar'
  | 'postgres'
  | 'initdb'
  | 'pgbouncer'
  | 'memcached';

/** The Debian package that provides each tool (for hints and for `fencecheck setup`). */
export const PACKAGE_OF: Record<Tool, string> = {
  ip: 'iproute2',
  nft: 'nftables',
  gcc: 'gcc',
  setpriv: 'util-linux',
  'redis-server': 'redis-server',
  etcd: 'etcd-server',
  etcdctl: 'etcd-client',
  java: 'zookeeper',
  'zookeeper.jar': 'zookeeper',
  'slf4j-simple.jar': 'libslf4j-java',
  postgres: 'postgresql',
  initdb: 'postgresql',
  pgbouncer: 'pgbouncer',
  memcached: 'memcached',
};

/** What each backend needs on the machine. */

const JAR_DIR = '/usr/share/java';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Search PATH plus the sbin directories (root's tools live there; a non-root PATH may lack them). */
export function which(name: string): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  return dirs
    .filter(Boolean)
    .map((d) => join(d, name))
    .find(executable);
}

/**
 * PostgreSQL's server programs are not on PATH on a stock Debian host (they
 * live in /usr/lib/postgresql/<major>/bin); some images link them into
 * /usr/local/bin. Take PATH first, then the newest major version.
 */
export function findPostgresProgram(name: 'postgres' | 'initdb'): string | undefined {
  const onPath = which(name);
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return majors.map((m) => join(root, m, 'bin', name)).find(executable);
}

/** Where a tool is, or undefined. */
export function findTool(tool: Tool): string | undefined {
  if (tool.endsWith('.jar')) {
    const path = join(JAR_DIR, tool);
    return existsSync(path) ? path : undefined;
  }
  if (tool === 'postgres' || tool === 'initdb') return findPostgresProgram(tool);
  return which(tool);
}

/** Every tool the backends need, or a PreflightError naming all that are missing. */
export function requireTools(tools: readonly Tool[]): Record<Tool, string> {
  const found = {} as Record<Tool, string>;
  const missing: Tool[] = [];
  for (const tool of new Set(tools)) {
    const path = findTool(tool);
    if (path === undefined) missing.push(tool);
    else found[tool] = path;
  }
  if (missing.length > 0) {
    const pkgs = [...new Set(missing.map((t) => PACKAGE_OF[t]))].join(' ');
    throw new PreflightError(`Missing on this machine: ${missing.join(', ')}.`, `Run \`npm run setup\` (as root it installs: ${pkgs}).`);
  }
  return found;
}

/** uid and gid of a system user, from /etc/passwd. */
export function lookupUser(name: string): { uid: number; gid: number } | undefined {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}:`));
    const fields = line?.split(':');
    return fields && fields.length > 3 ? { uid: Number(fields[2]), gid: Number(fields[3]) } : undefined;
  } catch {
    return undefined;
  }
}
