/**
 * npm run bench:providers -- [namespaces] [containers]: the same cluster and
 * the same faults on each provider, timed, each fault checked for its effect:
 * up (redis with AOF, etcd, ZooKeeper, PostgreSQL, one client host), a
 * partition of the client from redis1 (a PING from the client host times out,
 * and answers again after the heal), a pause of redis1 (the connect completes,
 * no answer), kill -9 and restart of redis1 (the AOF key is still there), a
 * +20 s clock offset on redis1 (its TIME moves), and the teardown; then what
 * is left (namespaces, or containers and networks by label). Run it under the
 * integration lock: it starts real clusters.
 */
import { startCluster, type ProviderName } from '../runtime/cluster/start-cluster.js';
import { tcpExchange } from '../runtime/cluster/probes.js';
import { projectNamespaces } from '../runtime/cluster/topology.js';
import { docker, dockerStatus } from '../runtime/cluster/containers/docker-cli.js';

const PING_FROM_HOST = (ip: string, port: number): string =>
  `const s=require('net').connect(${port},'${ip}');s.setTimeout(1500);s.on('connect',()=>s.write('PING\\r\\n'));` +
  `s.on('data',d=>{process.stdout.write(String(d).trim());process.exit(0)});s.on('timeout',()=>{process.stdout.write('timeout');process.exit(1)});s.on('error',e=>{process.stdout.write(e.code);process.exit(1)})`;

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = process.hrtime.bigint();
  const v = await f();
  return [v, Number(process.hrtime.bigint() - t) / 1e6];
}

async function leftovers(): Promise<string> {
  const ns = projectNamespaces().length;
  if (!(await dockerStatus()).usable) return `namespaces ${ns}`;
  const count = async (args: string[]): Promise<number> =>
    (await docker([...args, '--filter', 'label=org.fencecheck.project=fencecheck', '-q'])).stdout.split('\n').filter(Boolean).length;
  return `namespaces ${ns}, containers ${await count(['ps', '-a'])}, networks ${await count(['network', 'ls'])}, volumes ${await count(['volume', 'ls'])}`;
}

async function measure(provider: ProviderName): Promise<void> {
  const row = (what: string, ms: number, seen: string): void =>
    void process.stdout.write(`${provider.padEnd(10)}  ${what.padEnd(22)} ${ms.toFixed(0).padStart(6)} ms  ${seen}\n`);
  const [cluster, upMs] = await timed(() =>
    startCluster({ provider, backends: ['redis', 'etcd', 'zookeeper', 'postgres'], clientHosts: ['c1'], redis: { persistence: 'aof-everysec' } }),
  );
  try {
    row('up (redis,etcd,zk,pg)', upMs, `${cluster.nodes.length} nodes, 1 client host`);
    const n = cluster.nemesis;
    const redis = cluster.endpoints('redis')[0]!;
    const c1 = cluster.clientHost('c1');
    const ping = async (): Promise<string> =>
      (await c1.exec(['node', '-e', PING_FROM_HOST(redis.host, redis.port)], { reject: false, timeoutMs: 10_000 })).stdout;
    const ask = (cmd: string): Promise<string> =>
      tcpExchange(redis.host, redis.port, cmd, { timeoutMs: 1500, done: (a) => (a.includes('\r\n') && !a.startsWith('*')) || /\r\n.*\r\n.*\r\n/s.test(a) });
    row('ping from c1', 0, await ping());
    const [, partMs] = await timed(() => n.partition({ c1: ['redis1'], redis1: ['c1'] }));
    row('partition c1|redis1', partMs, `ping from c1: ${await ping()}`);
    const [, healMs] = await timed(() => n.heal());
    row('heal', healMs, `ping from c1: ${await ping()}`);
    const [, pauseMs] = await timed(() => n.pause('redis1'));
    row('pause redis1', pauseMs, `ping from c1: ${await ping()}`);
    const [, resumeMs] = await timed(() => n.resume('redis1'));
    row('resume redis1', resumeMs, `ping from c1: ${await ping()}`);
    await ask('SET fc-bench kept\r\n');
    await new Promise((r) => setTimeout(r, 1200)); // appendfsync everysec
    const [, killMs] = await timed(() => n.kill('redis1'));
    row('kill -9 redis1', killMs, `ping from c1: ${await ping()}`);
    const [, restartMs] = await timed(() => n.restart('redis1'));
    row('restart redis1 (ready)', restartMs, `GET after restart: ${JSON.stringify((await ask('GET fc-bench\r\n')).trim())}`);
    const time = async (): Promise<number> => Number(/\r\n(\d+)\r\n/.exec(await ask('TIME\r\n'))?.[1] ?? NaN);
    const before = await time();
    const [, clockMs] = await timed(() => n.clockOffset('redis1', 20_000));
    row('clock +20 s redis1', clockMs, `TIME moved ${(await time()) - before} s`);
    await n.clockOffset('redis1', 0);
  } finally {
    const [, downMs] = await timed(() => cluster.teardown());
    row('teardown', downMs, `left: ${await leftovers()}`);
  }
}

const wanted = process.argv.slice(2).filter((a): a is ProviderName => a === 'namespaces' || a === 'containers');
for (const p of wanted.length > 0 ? wanted : (['namespaces', 'containers'] as const)) await measure(p);
