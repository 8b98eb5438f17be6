/**
 * etcd: every lease revoked (a lock's key lives as long as its lease) and
 * every key deleted, through the v3 JSON gateway of the first member that
 * answers. The check asks each member for its status (all answer, one
 * leader) and counts keys and leases.
 */
import { etcdStatus } from './etcd.js';
import { httpJson } from '../probes.js';
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { messageOf, type BackendReset } from '../../hosts/driver.js';

/** The whole key space: key and range_end both "\0" (base64 `AA==`). */
const ALL_KEYS = { key: 'AA==', range_end: 'AA==' };

const post = (n: NodePlan, path: string, body: object): Promise<unknown> =>
  httpJson(`http://${n.ip}:${n.port}${path}`, { method: 'POST', body: JSON.stringify(body), timeoutMs: 2000 });

/** Lease ids and the key count as a member answers them (pure reads of the gateway's JSON: zero values are left out). */
export function leaseIds(body: unknown): string[] {
  const leases = (body as { leases?: { ID?: string }[] } | null)?.leases ?? [];
  return leases.map((l) => l.ID).filter((id): id is string => id !== undefined);
}
export function keyCount(body: unknown): number {
  return Number((body as { count?: string } | null)?.count ?? 0);
}

async function firstAnswering(nodes: readonly NodePlan[]): Promise<NodePlan> {
  for (const n of nodes)
    if (
      await etcdStatus(n, 1000).then(
        () => true,
        () => false,
      )
    )
      return n;
  throw new Error(`no etcd member answers (${nodes.map((n) => n.name).join(', ')})`);
}

export const etcdReset: BackendReset = {
  async reset({ nodes }) {
    const n = await firstAnswering(nodes);
    // At once: each revoke is a raft commit, and a run leaves a lease per acquire its clients did not revoke themselves.
    await Promise.all(leaseIds(await post(n, '/v3/lease/leases', {})).map((id) => post(n, '/v3/lease/revoke', { ID: id })));
    // A lock's key goes with its lease: most runs leave no other key, and a count is a read where a delete is a raft write.
    if (keyCount(await post(n, '/v3/kv/range', { ...ALL_KEYS, count_only: true })) > 0) await post(n, '/v3/kv/deleterange', ALL_KEYS);
  },
  async check({ nodes }) {
    const statuses = await Promise.all(nodes.map((n) => etcdStatus(n, 1000).catch((err: unknown) => new Error(messageOf(err)))));
    const problems = statuses.flatMap((s, i) => (s instanceof Error ? [`${nodes[i]!.name}: not answering (${s.message})`] : []));
    const leaders = new Set(statuses.flatMap((s) => (s instanceof Error || s.leader === '' || s.leader === '0' ? [] : [s.leader])));
    if (leaders.size !== 1) problems.push(`etcd members name ${leaders.size} leaders`);
    const n = nodes.find((_, i) => !(statuses[i] instanceof Error));
    if (!n) return problems;
    const keys = keyCount(await post(n, '/v3/kv/range', { ...ALL_KEYS, count_only: true }));
    if (keys > 0) problems.push(`etcd: ${keys} keys left`);
    const leases = leaseIds(await post(n, '/v3/lease/leases', {}));
    if (leases.length > 0) problems.push(`etcd: ${leases.length} leases left`);
    return problems;
  },
};
