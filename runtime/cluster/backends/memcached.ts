/**
 * memcached 1.6 (Debian's): one cache node, the lock service of tooz's
 * memcached driver (an `add` with an expiry takes the lock, a `get` then a
 * `delete` releases it: docs/lock-clients.md). Configured on the command
 * line; it runs as `nobody` (memcached refuses root without `-u`, and needs
 * no files). `-m` is its memory limit in MB, fixed at start: a cache that
 * fills evicts by LRU, which is what tooz's users met (the issue).
 */
import type { ServerSpec } from '../../hosts/driver.js';
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { tcpExchange } from '../probes.js';

export const MEMCACHED_MEMORY_MB = 64;

/** The memcached arguments for one node (pure). */
export function memcachedArgs(node: NodePlan, memoryMb = MEMCACHED_MEMORY_MB): string[] {
  return [
    '-l',
    node.ip,
    '-p',
    String(node.port),
    // No UDP: tooz and the probes speak TCP, and UDP memcached is an amplification risk.
    '-U',
    '0',
    '-m',
    String(memoryMb),
    '-t',
    '2',
    '-u',
    'nobody',
    // Its log is otherwise empty (-v prints errors only): -vv logs its start and every command, which is where a
    // lock run's story on memcached is read (tooz's add/get/delete are a few per second).
    '-vv',
  ];
}

/** `version` until it answers `VERSION …`. */
export async function memcachedPing(node: NodePlan, timeoutMs = 500): Promise<void> {
  const answer = await tcpExchange(node.ip, node.port, 'version\r\n', { timeoutMs, done: (a) => a.includes('\r\n') });
  if (!answer.startsWith('VERSION ')) throw new Error(`memcached at ${node.ip}:${node.port} answered ${JSON.stringify(answer.trim())}`);
}

export function memcachedSpec(): ServerSpec {
  return {
    backend: 'memcached',
    comm: 'memcached',
    tools: ['memcached'],
    debianPackage: 'memcached',
    scheme: 'memcached',
    shape: {},
    wallClockPreload: true,
    stop: { signal: 'SIGTERM', graceMs: 2000 },
    // Nothing is persisted.
    teardown: { signal: 'SIGKILL', graceMs: 0 },
    async prepare() {},
    command(node: NodePlan, ctx) {
      return { argv: [ctx.tools.memcached ?? 'memcached', ...memcachedArgs(node)] };
    },
    probe: (node: NodePlan) => memcachedPing(node),
    describe: () => `${MEMCACHED_MEMORY_MB} MB, LRU eviction`,
  };
}
