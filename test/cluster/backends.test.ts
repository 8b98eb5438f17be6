import { describe, expect, it } from 'vitest';
import { etcdArgs } from '../../runtime/cluster/backends/etcd.js';
import { postgresArgs, postgresUrl } from '../../runtime/cluster/backends/postgres.js';
import { redisArgs } from '../../runtime/cluster/backends/redis.js';
import { backendSpec } from '../../runtime/cluster/backends/registry.js';
import { zooCfg, zookeeperArgv } from '../../runtime/cluster/backends/zookeeper.js';
import { planCluster, type NodePlan } from '../../core/cluster/cluster-plan.js';

const plan = planCluster({ backends: ['redis', 'etcd', 'zookeeper', 'postgres'] });
const node = (name: string): NodePlan => plan.nodes.find((n) => n.name === name) as NodePlan;

describe('redis', () => {
  it('maps each persistence mode to its AOF flags and never snapshots', () => {
    const base = ['--bind', '10.77.0.11', '--port', '6379', '--protected-mode', 'no', '--daemonize', 'no', '--dir', '/d', '--logfile', '', '--save', ''];
    expect(redisArgs(node('redis1'), '/d', 'none')).toEqual([...base, '--appendonly', 'no']);
    expect(redisArgs(node('redis1'), '/d', 'aof-everysec')).toEqual([...base, '--appendonly', 'yes', '--appendfsync', 'everysec']);
    expect(redisArgs(node('redis1'), '/d', 'aof-always')).toEqual([...base, '--appendonly', 'yes', '--appendfsync', 'always']);
  });

  it('is SIGKILLed at teardown only when nothing is persisted', () => {
    expect(backendSpec('redis', { redis: { persistence: 'none' } }).teardown).toEqual({ signal: 'SIGKILL', graceMs: 0 });
    expect(backendSpec('redis', { redis: { persistence: 'aof-always' } }).teardown.signal).toBe('SIGTERM');
    expect(backendSpec('redlock').backend).toBe('redlock');
  });
});

describe('etcd', () => {
  it('starts every member with the full static cluster', () => {
    const args = etcdArgs(node('etcd2'), plan, '/data/etcd2', 'fc-run');
    const flag = (f: string): string | undefined => args[args.indexOf(f) + 1];
    expect(flag('--name')).toBe('etcd2');
    expect(flag('--listen-client-urls')).toBe('http://10.77.0.32:2379');
    expect(flag('--initial-advertise-peer-urls')).toBe('http://10.77.0.32:2380');
    expect(flag('--initial-cluster')).toBe('etcd1=http://10.77.0.31:2380,etcd2=http://10.77.0.32:2380,etcd3=http://10.77.0.33:2380');
    expect(flag('--initial-cluster-state')).toBe('new');
    expect(flag('--initial-cluster-token')).toBe('fc-run');
  });

  it('says it cannot take a clock preload', () => {
    expect(backendSpec('etcd').wallClockPreload).toBe(false);
  });
});

describe('zookeeper', () => {
  it('lists the whole ensemble in every member config', () => {
    const cfg = zooCfg(node('zk3'), plan, '/data/zk3', 500);
    expect(cfg.endsWith('\n')).toBe(true);
    const settings = Object.fromEntries(
      cfg
        .trim()
        .split('\n')
        .map((l) => l.split('=') as [string, string]),
    );
    expect(settings).toEqual({
      tickTime: '500',
      initLimit: '10',
      syncLimit: '5',
      dataDir: '/data/zk3',
      clientPort: '2181',
      clientPortAddress: '10.77.0.43',
      'server.1': '10.77.0.41:2888:3888',
      'server.2': '10.77.0.42:2888:3888',
      'server.3': '10.77.0.43:2888:3888',
      '4lw.commands.whitelist': '*',
      'admin.enableServer': 'false',
      standaloneEnabled: 'false',
      reconfigEnabled: 'false',
      maxClientCnxns: '0',
    });
  });

  it('runs QuorumPeerMain with an SLF4J binding on the class path', () => {
    const argv = zookeeperArgv('/usr/bin/java', { zookeeper: '/j/zookeeper.jar', slf4jSimple: '/j/slf4j-simple.jar' }, '/c/zoo.cfg');
    expect(argv[argv.indexOf('-cp') + 1]).toBe('/j/zookeeper.jar:/j/slf4j-simple.jar');
    expect(argv.slice(-2)).toEqual(['org.apache.zookeeper.server.quorum.QuorumPeerMain', '/c/zoo.cfg']);
  });

  it('takes tickTime from the options, 500 ms by default', () => {
    expect(backendSpec('zookeeper').describe()).toBe('tickTime 500 ms');
    expect(backendSpec('zookeeper', { zookeeper: { tickTimeMs: 2000 } }).describe()).toBe('tickTime 2000 ms');
  });
});

describe('postgres', () => {
  it('listens on its own address only, without unix sockets', () => {
    const args = postgresArgs(node('pg1'), '/data/pg1');
    expect(args.slice(0, 2)).toEqual(['-D', '/data/pg1']);
    expect(args).toContain('listen_addresses=10.77.0.51');
    expect(args).toContain('unix_socket_directories=');
    // Nothing outside its data dir: no /dev/shm segments that a SIGKILL would leave behind.
    expect(args).toContain('dynamic_shared_memory_type=mmap');
    expect(postgresUrl(node('pg1'))).toBe('postgres://postgres@10.77.0.51:5432/postgres');
  });

  it('stops with fast shutdown (SIGINT), not smart shutdown', () => {
    expect(backendSpec('postgres').stop.signal).toBe('SIGINT');
    expect(backendSpec('postgres').teardown.signal).toBe('SIGINT');
  });
});
