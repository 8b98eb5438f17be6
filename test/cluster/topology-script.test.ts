import { describe, expect, it } from 'vitest';
import { planClientHost, planCluster } from '../../core/cluster/cluster-plan.js';
import { teardownScript, topologyScript } from '../../runtime/cluster/topology-script.js';

describe('topologyScript', () => {
  it('creates the switch, the control veth and one veth per host, each end in its namespace', () => {
    const plan = planCluster({ backends: ['redis'] });
    plan.clients.push(planClientHost(plan, 'c1'));
    const script = topologyScript(plan);
    expect(script.root).toEqual([
      'netns add fc-sw',
      'link add fc-br netns fc-sw type bridge',
      'link add fc-ctl type veth peer name fc-sctl netns fc-sw',
      'addr add 10.77.0.1/24 dev fc-ctl',
      'link set fc-ctl up',
      'netns add fc-redis1',
      'link add fc-n11 netns fc-redis1 type veth peer name fc-s11 netns fc-sw',
      'netns add fc-c-c1',
      'link add fc-n100 netns fc-c-c1 type veth peer name fc-s100 netns fc-sw',
    ]);
    expect(Object.fromEntries(script.perNamespace)).toEqual({
      'fc-sw': [
        'link set lo up',
        'link set fc-br up',
        'link set fc-sctl master fc-br',
        'link set fc-sctl up',
        'link set fc-s11 master fc-br',
        'link set fc-s11 up',
        'link set fc-s100 master fc-br',
        'link set fc-s100 up',
      ],
      'fc-redis1': ['link set lo up', 'addr add 10.77.0.11/24 dev fc-n11', 'link set fc-n11 up'],
      'fc-c-c1': ['link set lo up', 'addr add 10.77.0.100/24 dev fc-n100', 'link set fc-n100 up'],
    });
  });

  it('never adds a route: each host only has its connected /24', () => {
    const script = topologyScript(planCluster({ backends: ['etcd'] }));
    const lines = [...script.root, ...[...script.perNamespace.values()].flat()];
    expect(lines.filter((l) => l.includes('route'))).toEqual([]);
  });
});

describe('teardownScript', () => {
  it('deletes root links before namespaces', () => {
    expect(teardownScript(['fc-sw', 'fc-redis1'], ['fc-ctl'])).toEqual(['link del fc-ctl', 'netns del fc-sw', 'netns del fc-redis1']);
  });
});
