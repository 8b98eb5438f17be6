import { describe, expect, it } from 'vitest';
import {
  clientContainerName,
  hostContainerName,
  labelsFor,
  PROJECT_LABEL,
  RUN_LABEL,
  runIdOf,
  serverContainerName,
} from '../../runtime/cluster/containers/container-labels.js';
import { planClientHost, planCluster } from '../../core/cluster/cluster-plan.js';

describe('container names and labels', () => {
  const plan = planCluster({ backends: ['etcd'] });
  const c1 = planClientHost(plan, 'c1');
  const etcd1 = plan.nodes[0]!;

  it('follow the namespace plan: the host container is named as the namespace', () => {
    expect(hostContainerName(etcd1)).toBe('fc-etcd1');
    expect(serverContainerName(etcd1)).toBe('fc-etcd1-srv');
    expect(hostContainerName(c1)).toBe('fc-c-c1');
    expect(clientContainerName(c1, 'client1-1')).toBe('fc-c-c1-client1-1');
  });

  it('a process name that Docker would refuse becomes one it accepts', () => {
    expect(clientContainerName(c1, 'proxy c1/pg1:5432')).toMatch(/^[a-zA-Z0-9_.-]+$/);
  });

  it('every container carries the project and the run', () => {
    expect(labelsFor('run-1', 'server')).toEqual({ [PROJECT_LABEL]: 'fencecheck', [RUN_LABEL]: 'run-1', 'org.fencecheck.role': 'server' });
  });

  it('a run id is made of the run directory name and the time, in characters a label filter takes', () => {
    const id = runIdOf('/x/results/redis-none lock/20261130T221904', new Date(0));
    expect(id).toBe('20261130T221904-0');
    expect(runIdOf('/x/a b', new Date(1000))).toMatch(/^[a-zA-Z0-9-]+$/);
  });
});
