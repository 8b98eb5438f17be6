/**
 * Redis and Redlock: every key gone from every node (the lock key and its
 * `:fence` counter, on each of Redlock's five). FLUSHALL is a write like any
 * other, so with AOF persistence a later kill and restart does not bring the
 * keys back. The evict fault's settings back as the node starts (no memory
 * limit, noeviction, no keyspace events): its stop() restores them, but a
 * window that could not stop (the node paused at its end) would leave the
 * next run a cache.
 */
import { askRedis } from '../../clients/sentinel-probes.js';
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { messageOf, type BackendReset } from '../../hosts/driver.js';

/** What one Redis node holds: the problem line, or undefined when it answers and is empty. */
export async function redisKeysProblem(n: NodePlan): Promise<string | undefined> {
  try {
    const keys = await askRedis(n.ip, n.port, (r) => r.keys('*'));
    return keys.length === 0 ? undefined : `${n.name}: ${keys.length} keys left (${keys.slice(0, 3).join(', ')})`;
  } catch (err) {
    return `${n.name}: not answering (${messageOf(err)})`;
  }
}

/** The settings the evict fault changes, as every node starts (redis-server's defaults; our configs set none of them). */
export const PLANNED_EVICTION_SETTINGS: Record<string, string> = { maxmemory: '0', 'maxmemory-policy': 'noeviction', 'notify-keyspace-events': '' };

/** A node's eviction settings that differ from the planned ones (pure): each a problem line. */
export function evictionSettingProblems(node: string, got: Record<string, string | undefined>): string[] {
  return Object.entries(PLANNED_EVICTION_SETTINGS)
    .filter(([k, v]) => got[k] !== v)
    .map(([k, v]) => `${node}: ${k} is ${JSON.stringify(got[k] ?? null)}, planned ${JSON.stringify(v)} (an evict window left it)`);
}

function evictionSettings(n: NodePlan): Promise<Record<string, string | undefined>> {
  return askRedis(n.ip, n.port, async (r) => {
    const out: Record<string, string | undefined> = {};
    for (const k of Object.keys(PLANNED_EVICTION_SETTINGS)) out[k] = ((await r.config('GET', k)) as string[])[1];
    return out;
  });
}

export const redisReset: BackendReset = {
  async reset({ nodes }) {
    await Promise.all(
      nodes.map((n) =>
        askRedis(
          n.ip,
          n.port,
          async (r) => {
            for (const [k, v] of Object.entries(PLANNED_EVICTION_SETTINGS)) await r.config('SET', k, v);
            await r.flushall();
          },
          2000,
        ),
      ),
    );
  },
  async check({ nodes }) {
    const problems = await Promise.all(
      nodes.map(async (n) => {
        const keys = await redisKeysProblem(n);
        if (keys?.includes('not answering')) return [keys];
        return [...(keys ? [keys] : []), ...evictionSettingProblems(n.name, await evictionSettings(n).catch(() => ({})))];
      }),
    );
    return problems.flat();
  },
};
