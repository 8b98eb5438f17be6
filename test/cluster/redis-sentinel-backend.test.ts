import { describe, expect, it } from 'vitest';
import { initialMaster, sentinelConf, sentinelDataArgs, sentinelId } from '../../runtime/cluster/backends/redis-sentinel.js';
import { parseInfo, replicationState } from '../../runtime/clients/sentinel-probes.js';
import { backendSpec } from '../../runtime/cluster/backends/registry.js';
import { planCluster, type NodePlan } from '../../core/cluster/cluster-plan.js';

const plan = planCluster({ backends: ['redis-sentinel'] });
const node = (name: string): NodePlan => plan.nodes.find((n) => n.name === name)!;

describe('redis-sentinel data nodes', () => {
  it('start rs1 as the master and the others as its replicas, with diskless sync at once', () => {
    expect(initialMaster(plan).name).toBe('rs1');
    expect(sentinelDataArgs(node('rs1'), plan, '/d')).not.toContain('--replicaof');
    const replica = sentinelDataArgs(node('rs2'), plan, '/d');
    expect(replica.slice(-3)).toEqual(['--replicaof', '10.77.0.61', '6379']);
    expect(replica.join(' ')).toContain('--repl-diskless-sync-delay 0');
    expect(replica).not.toContain('--min-replicas-to-write');
  });

  it('set min-replicas-to-write / max-lag on every data node when asked', () => {
    for (const n of ['rs1', 'rs3']) {
      expect(sentinelDataArgs(node(n), plan, '/d', { minReplicas: 1 }).join(' ')).toContain('--min-replicas-to-write 1 --min-replicas-max-lag 1');
    }
    expect(backendSpec('redis-sentinel', { redisSentinel: { minReplicas: 2, minReplicasMaxLagS: 3 } }).describe()).toContain(
      'min-replicas-to-write 2 max-lag 3 s',
    );
  });
});

describe('sentinel.conf', () => {
  it('monitors rs1 with quorum 2 and lists the replicas and the other Sentinels with their fixed ids', () => {
    const conf = sentinelConf(node('sentinel2'), plan, '/d/sentinel2').split('\n');
    expect(conf).toContain('bind 10.77.0.67');
    expect(conf).toContain('port 26379');
    expect(conf).toContain(`sentinel myid ${sentinelId(node('sentinel2'))}`);
    expect(conf).toContain('sentinel monitor fencecheck 10.77.0.61 6379 2');
    expect(conf).toContain('sentinel down-after-milliseconds fencecheck 1000');
    expect(conf.filter((l) => l.startsWith('sentinel known-replica'))).toEqual([
      'sentinel known-replica fencecheck 10.77.0.62 6379',
      'sentinel known-replica fencecheck 10.77.0.63 6379',
    ]);
    expect(conf.filter((l) => l.startsWith('sentinel known-sentinel'))).toEqual([
      `sentinel known-sentinel fencecheck 10.77.0.66 26379 ${sentinelId(node('sentinel1'))}`,
      `sentinel known-sentinel fencecheck 10.77.0.68 26379 ${sentinelId(node('sentinel3'))}`,
    ]);
    expect(sentinelId(node('sentinel1'))).toMatch(/^[0-9a-f]{40}$/);
    expect(new Set(['sentinel1', 'sentinel2', 'sentinel3'].map((n) => sentinelId(node(n)))).size).toBe(3);
  });

  it('runs as redis-server --sentinel on its config in the data dir', () => {
    const spec = backendSpec('redis-sentinel');
    const ctx = {
      runDir: '/r',
      plan,
      tools: { 'redis-server': '/usr/bin/redis-server' },
      dataDir: (n: NodePlan) => `/r/data/${n.name}`,
      logPath: (n: NodePlan) => `/r/logs/${n.name}.log`,
      execOnHost: async () => undefined,
      userIds: async () => undefined,
    };
    expect(spec.command(node('sentinel1'), ctx).argv).toEqual(['/usr/bin/redis-server', '/r/data/sentinel1/sentinel.conf', '--sentinel']);
    expect(spec.command(node('rs1'), ctx).argv[0]).toBe('/usr/bin/redis-server');
    expect(spec.comm).toBe('redis-server');
  });
});

describe('INFO replication', () => {
  it('reads a replica and a master', () => {
    const replica = parseInfo(
      '# Replication\r\nrole:slave\r\nmaster_host:10.77.0.61\r\nmaster_port:6379\r\nmaster_link_status:up\r\nslave_repl_offset:845\r\n',
    );
    expect(replicationState(replica)).toEqual({ role: 'slave', masterHost: '10.77.0.61', linkUp: true, offset: 845 });
    const master = parseInfo('# Replication\r\nrole:master\r\nconnected_slaves:2\r\nmaster_repl_offset:900\r\n');
    expect(replicationState(master)).toEqual({ role: 'master', offset: 900, connectedReplicas: 2 });
    expect(replicationState(parseInfo('role:slave\r\nmaster_link_status:down\r\n')).linkUp).toBe(false);
  });
});
