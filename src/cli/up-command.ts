/**
 * `fencecheck up --backend redis|redlock|etcd|zookeeper|postgres|redis-sentinel|all`: start
 * the servers in their namespaces, print the endpoints, and leave them
 * running for `fencecheck down`.
 */
import type { Command } from 'commander';
import { REDIS_PERSISTENCE, type RedisPersistence } from '../../core/plan/redis-persistence.js';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { BACKENDS, isBackendName, type BackendName } from '../../core/cluster/cluster-plan.js';
import { startCluster, type StartClusterOptions } from '../../runtime/cluster/start-cluster.js';
import { keptOptionsOf } from '../../runtime/cluster/kept-cluster.js';
import { PROVIDERS, providerFacts, type ProviderName } from '../../core/plan/providers.js';
import { SENTINEL_MASTER_NAME } from '../../runtime/clients/sentinel-probes.js';
import { UsageError } from '../../core/errors.js';
import { ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { oneLine } from '../../core/printable.js';
import { assertClusterPlan, subnetFlag } from './cluster-flags.js';
import { FLAG_RANGES, numberFlag, oneOf, withRange } from './parse-options.js';

interface UpFlags {
  backend: BackendName[];
  runDir?: string;
  subnet?: string;
  redisPersistence: RedisPersistence;
  redlockPersistence: RedisPersistence;
  zkTickMs?: number;
  sentinelMinReplicas?: number;
  client: string[];
  readyTimeoutMs?: number;
  busyTimeoutMs?: number;
  json?: boolean;
  provider: ProviderName;
  keep?: boolean;
}

/** `--backend a,b --backend c` or `all`, collected across repeats. */
function backendList(text: string, previous: BackendName[] = []): BackendName[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out = [...previous];
  for (const n of names) {
    if (n === 'all') out.push(...BACKENDS);
    else if (isBackendName(n)) out.push(n);
    else throw new UsageError(`Expected \`--backend\` to be one of ${BACKENDS.join(', ')}, all; got \`${n}\``);
  }
  return [...new Set(out)];
}

function clientList(text: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

export function registerUpCommand(program: Command): void {
  program
    .command('up')
    .description('Start real server clusters, each node in its own network namespace, and leave them running.')
    .requiredOption('--backend <names>', `${BACKENDS.join(', ')} or all (comma-separated or repeated)`, backendList)
    .option('--run-dir <dir>', 'logs and data go here (default results/cluster-<time>)')
    .option('--subnet <cidr>', 'a private /24 for the namespaces (default 10.77.0.0/24)', subnetFlag('--subnet'))
    .option('--redis-persistence <mode>', `redis: ${REDIS_PERSISTENCE.join(', ')}`, oneOf('--redis-persistence', REDIS_PERSISTENCE), 'none')
    .option('--redlock-persistence <mode>', `redlock: ${REDIS_PERSISTENCE.join(', ')}`, oneOf('--redlock-persistence', REDIS_PERSISTENCE), 'none')
    .option(
      '--sentinel-min-replicas <n>',
      withRange('redis-sentinel: min-replicas-to-write on every data node (max lag 1 s)', FLAG_RANGES['--sentinel-min-replicas']),
      numberFlag('--sentinel-min-replicas'),
    )
    .option('--zk-tick-ms <n>', withRange('ZooKeeper tickTime in ms (default 500)', FLAG_RANGES['--zk-tick-ms']), numberFlag('--zk-tick-ms'))
    .option('--client <names>', 'client hosts to create too (comma-separated or repeated)', clientList, [])
    .option(
      '--ready-timeout-ms <n>',
      withRange('give up on a node after N ms (default 30000)', FLAG_RANGES['--ready-timeout-ms']),
      numberFlag('--ready-timeout-ms'),
    )
    .option(
      '--busy-timeout-ms <n>',
      withRange('wait up to N ms for another fencecheck cluster on this machine to end', FLAG_RANGES['--busy-timeout-ms']),
      numberFlag('--busy-timeout-ms'),
    )
    .option(
      '--keep',
      'keep it warm for the next commands: run, compare, scenario, hunt and shrink adopt it when it fits (reset and checked like any warm cluster) and leave it running; PostgreSQL (the resource) is added',
    )
    .option('--json', 'print the endpoints as JSON')
    .option(
      '--provider <name>',
      `where the hosts run: ${PROVIDERS.join(' (root), ')} (a Docker daemon; \`fencecheck images build\` first)`,
      oneOf('--provider', PROVIDERS),
      'namespaces',
    )
    .addHelpText(
      'after',
      `
Needs root. Tear down with \`fencecheck down\`; check the machine with \`fencecheck doctor\`.
Examples:
  fencecheck up --backend all
  fencecheck up --backend redis --redis-persistence aof-always
  fencecheck up --backend etcd,postgres --client c1,c2
  fencecheck up --backend redis-sentinel
  fencecheck up --keep --backend redis --client c1,c2,c3   # then: fencecheck run --backend redis ... (adopts it)`,
    )
    .action(async (flags: UpFlags) => {
      const notKept = providerFacts(flags.provider).notKept;
      if (flags.keep && notKept !== undefined)
        throw new UsageError(
          `Cannot keep a cluster on the ${flags.provider} provider: its clusters ${notKept}, not kept for the next`,
          'Leave out --keep, or use --provider namespaces.',
        );
      // Every run needs the resource: a kept cluster without PostgreSQL would fit none.
      if (flags.keep && !flags.backend.includes('postgres')) flags.backend = [...flags.backend, 'postgres'];
      assertClusterPlan(flags.backend, flags.subnet, flags.client);
      if (flags.runDir !== undefined) ensureWritableDir(flags.runDir, '`--run-dir`');
      const started = Date.now();
      const log = flags.json ? undefined : (line: string): void => void process.stdout.write(`  ${oneLine(line)}\n`);
      const options: StartClusterOptions = {
        backends: flags.backend,
        ...(flags.runDir ? { runDir: flags.runDir } : {}),
        ...(flags.subnet ? { subnet: flags.subnet } : {}),
        ...(flags.readyTimeoutMs ? { readyTimeoutMs: flags.readyTimeoutMs } : {}),
        ...(flags.busyTimeoutMs ? { busyTimeoutMs: flags.busyTimeoutMs } : {}),
        redis: { persistence: flags.redisPersistence },
        redlock: { persistence: flags.redlockPersistence },
        ...(flags.zkTickMs ? { zookeeper: { tickTimeMs: flags.zkTickMs } } : {}),
        ...(flags.sentinelMinReplicas ? { redisSentinel: { minReplicas: flags.sentinelMinReplicas } } : {}),
        clientHosts: flags.client,
        detach: true,
        provider: flags.provider,
        ...(log ? { log } : {}),
      };
      const cluster: Cluster = await startCluster(options);
      if (flags.keep) await cluster.keep({ options: keptOptionsOf(options), runs: 0, keptAt: new Date().toISOString() });
      const elapsed = Date.now() - started;
      const master = flags.backend.includes('redis-sentinel') ? await sentinelMaster(cluster) : undefined;
      process.stdout.write(
        flags.json
          ? JSON.stringify({ ...describe(cluster, elapsed), ...(master ? { sentinelMaster: master } : {}), kept: flags.keep ?? false }, null, 2) + '\n'
          : formatUp(cluster, elapsed, master, flags.keep ?? false),
      );
    });
}

function describe(cluster: Cluster, elapsedMs: number): object {
  return {
    elapsedMs,
    runDir: cluster.runDir,
    stateFile: cluster.stateFile,
    control: cluster.plan.control.ip,
    endpoints: cluster.endpoints(),
    clients: cluster.clientHosts().map((c) => ({ name: c.name, ip: c.ip, namespace: c.namespace })),
  };
}

/** The master the Sentinels agree on, and the name clients ask them for. */
async function sentinelMaster(cluster: Cluster): Promise<{ name: string; node: string | null; sentinels: string[] }> {
  const node = await cluster.leader('redis-sentinel');
  return { name: SENTINEL_MASTER_NAME, node: node ?? null, sentinels: cluster.clientEndpoints('redis-sentinel').map((e) => `${e.host}:${e.port}`) };
}

function formatUp(cluster: Cluster, elapsedMs: number, master: { name: string; node: string | null; sentinels: string[] } | undefined, kept: boolean): string {
  const rows = cluster
    .endpoints()
    .map((e) => [e.backend, e.role === 'sentinel' ? `${e.node} (sentinel)` : e.node === master?.node ? `${e.node} (master)` : e.node, e.url, e.namespace]);
  rows.push(...cluster.clientHosts().map((c) => ['client', c.name, c.ip, c.namespace]));
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const table = rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  ')).join('\n');
  const sentinel = master
    ? `\nredis-sentinel: master \`${master.name}\` is ${master.node ?? '(no agreement)'}; clients ask the Sentinels ${master.sentinels.join(', ')}`
    : '';
  return `${table}\n${sentinel}\nready in ${(elapsedMs / 1000).toFixed(2)} s; logs in ${cluster.runDir}/logs\nrun a command on a host: ${providerFacts(cluster.provider).hostShell} <command>\n${kept ? 'kept warm: the next run, compare, scenario, hunt or shrink whose cluster options fit adopts it (reset and checked first) and leaves it running\n' : ''}tear down: fencecheck down\n`;
}
