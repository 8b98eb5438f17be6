import { describe, expect, it } from 'vitest';
import { allHosts, BACKENDS, namespacesOf, parseSubnet, planClientHost, planCluster } from '../../core/cluster/cluster-plan.js';

describe('planCluster', () => {
  it('names and addresses every node of every backend', () => {
    const plan = planCluster({ backends: BACKENDS });
    expect(plan.nodes.map((n) => `${n.name} ${n.ip}:${n.port} ${n.namespace} ${n.ifname}/${n.switchIfname}`)).toEqual([
      'redis1 10.77.0.11:6379 fc-redis1 fc-n11/fc-s11',
      'redlock1 10.77.0.21:6379 fc-redlock1 fc-n21/fc-s21',
      'redlock2 10.77.0.22:6379 fc-redlock2 fc-n22/fc-s22',
      'redlock3 10.77.0.23:6379 fc-redlock3 fc-n23/fc-s23',
      'redlock4 10.77.0.24:6379 fc-redlock4 fc-n24/fc-s24',
      'redlock5 10.77.0.25:6379 fc-redlock5 fc-n25/fc-s25',
      'etcd1 10.77.0.31:2379 fc-etcd1 fc-n31/fc-s31',
      'etcd2 10.77.0.32:2379 fc-etcd2 fc-n32/fc-s32',
      'etcd3 10.77.0.33:2379 fc-etcd3 fc-n33/fc-s33',
      'zk1 10.77.0.41:2181 fc-zk1 fc-n41/fc-s41',
      'zk2 10.77.0.42:2181 fc-zk2 fc-n42/fc-s42',
      'zk3 10.77.0.43:2181 fc-zk3 fc-n43/fc-s43',
      'pg1 10.77.0.51:5432 fc-pg1 fc-n51/fc-s51',
      'rs1 10.77.0.61:6379 fc-rs1 fc-n61/fc-s61',
      'rs2 10.77.0.62:6379 fc-rs2 fc-n62/fc-s62',
      'rs3 10.77.0.63:6379 fc-rs3 fc-n63/fc-s63',
      'sentinel1 10.77.0.66:26379 fc-sentinel1 fc-n66/fc-s66',
      'sentinel2 10.77.0.67:26379 fc-sentinel2 fc-n67/fc-s67',
      'sentinel3 10.77.0.68:26379 fc-sentinel3 fc-n68/fc-s68',
      'pgl1 10.77.0.71:5432 fc-pgl1 fc-n71/fc-s71',
      'pgb1 10.77.0.76:6432 fc-pgb1 fc-n76/fc-s76',
      'mc1 10.77.0.81:11211 fc-mc1 fc-n81/fc-s81',
    ]);
    expect(plan.nodes.filter((n) => n.backend === 'redis-sentinel').map((n) => `${n.name}:${n.role}:${n.index}`)).toEqual([
      'rs1:data:1',
      'rs2:data:2',
      'rs3:data:3',
      'sentinel1:sentinel:1',
      'sentinel2:sentinel:2',
      'sentinel3:sentinel:3',
    ]);
    expect(plan.control).toEqual({ ip: '10.77.0.1', ifname: 'fc-ctl', switchIfname: 'fc-sctl' });
    expect(plan.nodes.find((n) => n.name === 'zk2')?.ports).toEqual({ client: 2181, quorum: 2888, election: 3888 });
    expect(plan.nodes.find((n) => n.name === 'etcd3')?.index).toBe(3);
  });

  it('keeps a node at the same address whatever else is planned', () => {
    const alone = planCluster({ backends: ['etcd'] });
    const all = planCluster({ backends: ['postgres', 'etcd'] });
    expect(alone.nodes.map((n) => n.ip)).toEqual(all.nodes.filter((n) => n.backend === 'etcd').map((n) => n.ip));
  });

  it('gives every name the prefix and every interface at most 15 characters', () => {
    const plan = planCluster({ backends: BACKENDS });
    for (const n of ['alpha', 'a-very-long-name-20c']) plan.clients.push(planClientHost(plan, n));
    const ifnames = [plan.bridge, plan.control.ifname, plan.control.switchIfname, ...allHosts(plan).flatMap((h) => [h.ifname, h.switchIfname])];
    for (const name of [...ifnames, ...namespacesOf(plan)]) expect(name.startsWith('fc-')).toBe(true);
    for (const name of ifnames) expect(name.length).toBeLessThanOrEqual(15);
    const ips = allHosts(plan).map((h) => h.ip);
    expect(new Set(ips).size).toBe(ips.length);
  });

  it('uses another private /24 when asked', () => {
    expect(planCluster({ backends: ['redis'], subnet: '192.168.77.0/24' }).nodes[0]?.ip).toBe('192.168.77.11');
  });
});

describe('parseSubnet', () => {
  it('accepts private /24s only', () => {
    expect(parseSubnet('10.77.0.0/24')).toBe('10.77.0');
    expect(parseSubnet('172.16.5.0/24')).toBe('172.16.5');
    for (const bad of ['8.8.8.0/24', '10.77.0.0/16', '10.77.0.1/24', '172.32.0.0/24', '10.300.0.0/24', 'x']) {
      expect(() => parseSubnet(bad)).toThrow(/private \/24/);
    }
  });
});

describe('planClientHost', () => {
  it('allocates client addresses from .100 in order', () => {
    const plan = planCluster({ backends: ['redis'] });
    const a = planClientHost(plan, 'alice');
    plan.clients.push(a);
    const b = planClientHost(plan, 'bob');
    expect([a, b].map((h) => `${h.name} ${h.ip} ${h.namespace} ${h.ifname}`)).toEqual([
      'alice 10.77.0.100 fc-c-alice fc-n100',
      'bob 10.77.0.101 fc-c-bob fc-n101',
    ]);
  });

  it('rejects taken and malformed names', () => {
    const plan = planCluster({ backends: ['redis'] });
    plan.clients.push(planClientHost(plan, 'c1'));
    expect(() => planClientHost(plan, 'c1')).toThrow(/already taken/);
    expect(() => planClientHost(plan, 'redis1')).toThrow(/already taken/);
    expect(() => planClientHost(plan, 'control')).toThrow(/already taken/);
    expect(() => planClientHost(plan, 'Bad_Name')).toThrow(/lower-case/);
  });

  it('runs out of addresses after 155 clients', () => {
    const plan = planCluster({ backends: [] });
    for (let i = 0; i < 155; i++) plan.clients.push(planClientHost(plan, `c${i}`));
    expect(plan.clients.at(-1)?.ip).toBe('10.77.0.254');
    expect(() => planClientHost(plan, 'one-more')).toThrow(/No address left/);
  });
});
