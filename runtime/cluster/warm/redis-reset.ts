/**
 * Redis and Redlock: every key gone from every node (the lock key and its
 * `:fence` counter, on each of Redlock's five). FLUSHALL is a write like any
 * other, so with AOF persistence a later kill and restart does not bring the
 * keys back.
 */
import { askRedis } from '../../clients/sentinel-probes.js';
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { messageOf, type BackendReset } from './backend-reset.js';

/** What one Redis node holds: the problem line, or undefined when it answers and is empty. */
export async function redisKeysProblem(n: NodePlan): Promise<string | undefined> {
  try {
    const keys = await askRedis(n.ip, n.port, (r) => r.keys('*'));
    return keys.length === 0 ? undefined : `${n.name}: ${keys.length} keys left (${keys.slice(0, 3).join(', ')})`;
  } catch (err) {
    return `${n.name}: not answering (${messageOf(err)})`;
  }
}

export const redisReset: BackendReset = {
  async reset({ nodes }) {
    await Promise.all(nodes.map((n) => askRedis(n.ip, n.port, (r) => r.flushall(), 2000)));
  },
  async check({ nodes }) {
    return (await Promise.all(nodes.map(redisKeysProblem))).filter((p): p is string => p !== undefined);
  },
};
