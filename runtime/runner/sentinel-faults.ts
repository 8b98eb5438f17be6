/**
 * The partitions that only mean something around a replicated master, as
 * grudges computed when the fault starts (the master is whoever the Sentinels
 * name at that moment):
 *
 *   master-from-replicas   the master cut off from its replicas only. The
 *                          Sentinels and every client still reach it, so no
 *                          failover starts, but nothing it acknowledges
 *                          reaches a replica: replication delayed without
 *                          bound. Followed by a kill of the master, it is
 *                          Kleppmann's S7 race made certain.
 *   master-with-minority   the master and a minority of the clients (the
 *                          first floor(n/2) client hosts) on one side; the
 *                          replicas, the Sentinels and the other clients on
 *                          the other. The Sentinels promote a replica while
 *                          the minority keeps writing to the old master: the
 *                          split brain min-replicas-to-write is meant to bound.
 *
 * The resource (PostgreSQL) stays reachable from everyone.
 */
import { nodesOf, planCluster } from '../../core/cluster/cluster-plan.js';
import { completeGrudge, isolateOne, type Grudge } from '../../core/generator/grudge.js';
import { SCRIPTED_GRUDGE_KINDS } from '../../core/generator/fault-window.js';

export type SentinelGrudgeKind = (typeof SCRIPTED_GRUDGE_KINDS)[number];

export function isSentinelGrudgeKind(kind: string): kind is SentinelGrudgeKind {
  return (SCRIPTED_GRUDGE_KINDS as readonly string[]).includes(kind);
}

/** The grudge (pure), given the master, the data nodes, the Sentinels and the client hosts in order. */
export function sentinelGrudge(
  kind: SentinelGrudgeKind,
  master: string,
  data: readonly string[],
  sentinels: readonly string[],
  clients: readonly string[],
): Grudge {
  if (kind === 'master-from-replicas') return isolateOne(data, master);
  const minority = clients.slice(0, Math.floor(clients.length / 2));
  const rest = [...data.filter((d) => d !== master), ...sentinels, ...clients.filter((c) => !minority.includes(c))];
  return completeGrudge([[master, ...minority], rest]);
}

/**
 * The grudge when the fault starts, from the master the Sentinels name now
 * (undefined mid-failover: the fault is skipped), the lock nodes and the
 * client hosts. Which lock nodes are Sentinels comes from the pure cluster
 * plan, so the runner needs nothing but names.
 */
export function sentinelGrudgeOf(
  kind: SentinelGrudgeKind,
  master: string | undefined,
  lockNodes: readonly string[],
  clients: readonly string[],
): Grudge | undefined {
  if (master === undefined || !lockNodes.includes(master)) return undefined;
  const sentinels = new Set(
    nodesOf(planCluster({ backends: ['redis-sentinel'] }), 'redis-sentinel')
      .filter((n) => n.role === 'sentinel')
      .map((n) => n.name),
  );
  return sentinelGrudge(
    kind,
    master,
    lockNodes.filter((n) => !sentinels.has(n)),
    lockNodes.filter((n) => sentinels.has(n)),
    clients,
  );
}
