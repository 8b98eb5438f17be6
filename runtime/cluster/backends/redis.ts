/**
 * Redis: one server per node, configured on the command line, logging to
 * stdout (our log file). Persistence is a choice because it decides what a
 * kill -9 loses: `none` keeps data in memory only (a kill loses every lock
 * key), `aof-everysec` and `aof-always` append every write to a file. Note
 * that kill -9 does not lose AOF writes that are still in the page cache (the
 * kernel writes them later): only a power-loss style fault would, and this
 * layer has none.
 */
import { mkdir } from 'node:fs/promises';
import type { ServerSpec, SpecContext } from '../../hosts/driver.js';
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { tcpExchange } from '../probes.js';
import type { RedisPersistence } from '../../../core/plan/redis-persistence.js';

export interface RedisOptions {
  persistence?: RedisPersistence;
}

/** The redis-server arguments for one node (pure). */
export function redisArgs(node: NodePlan, dataDir: string, persistence: RedisPersistence): string[] {
  const aof = persistence === 'none' ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', persistence === 'aof-always' ? 'always' : 'everysec'];
  return [
    '--bind',
    node.ip,
    '--port',
    String(node.port),
    '--protected-mode',
    'no',
    '--daemonize',
    'no',
    '--dir',
    dataDir,
    '--logfile',
    '',
    // No RDB snapshots: they would make `none` persistent after all, and a fork per snapshot costs time.
    '--save',
    '',
    ...aof,
  ];
}

/** PING until PONG; a Redis still loading its AOF answers -LOADING and is not ready. */
export async function redisPing(host: string, port: number, timeoutMs = 500): Promise<void> {
  const answer = await tcpExchange(host, port, 'PING\r\n', { timeoutMs, done: (a) => a.includes('\r\n') });
  if (!answer.startsWith('+PONG')) throw new Error(`redis at ${host}:${port} answered ${JSON.stringify(answer.trim())}`);
}

export function redisSpec(backend: 'redis' | 'redlock', opts: RedisOptions = {}): ServerSpec {
  const persistence = opts.persistence ?? 'none';
  return {
    backend,
    comm: 'redis-server',
    tools: ['redis-server'],
    debianPackage: 'redis-server',
    scheme: 'redis',
    shape: { [`${backend} persistence`]: persistence },
    wallClockPreload: true,
    stop: { signal: 'SIGTERM', graceMs: 3000 },
    // Without persistence nothing on disk can be lost, so SIGKILL at once; with AOF,
    // SIGTERM lets Redis fsync and close the file (it takes milliseconds).
    teardown: persistence === 'none' ? { signal: 'SIGKILL', graceMs: 0 } : { signal: 'SIGTERM', graceMs: 1000 },
    async prepare(node: NodePlan, ctx: SpecContext) {
      await mkdir(ctx.dataDir(node), { recursive: true });
    },
    command(node: NodePlan, ctx: SpecContext) {
      return { argv: [ctx.tools['redis-server'] ?? 'redis-server', ...redisArgs(node, ctx.dataDir(node), persistence)] };
    },
    probe: (node: NodePlan) => redisPing(node.ip, node.port),
    describe: () => `persistence ${persistence}`,
  };
}
