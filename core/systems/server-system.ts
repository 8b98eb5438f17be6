/**
 * ServerSystem: what fencecheck knows of one backend's servers as pure data:
 * its nodes (how many, their name stem, their addresses and ports, a second
 * group where it has one) and the user its servers run as when not root. It
 * sits beside the backend's LockSystem in the backend's file; servers.ts
 * lists them once, and core/cluster/cluster-plan.ts plans a cluster from them.
 */
import type { BackendName } from './servers.js';

/** A group of nodes: how many, the node name stem, the first octet (node i gets base + i) and the ports. */
export interface NodeGroup {
  count: number;
  stem: string;
  base: number;
  ports: Record<string, number>;
}

/** A backend's data nodes, and for redis-sentinel its Sentinels as a second group. */
export type ServerLayout = NodeGroup & { sentinels?: NodeGroup };

export interface ServerSystem {
  layout: ServerLayout;
  /** The user its servers run as, when they refuse root (PostgreSQL, PgBouncer): their data goes where that user can reach it (runtime/hosts/paths.ts). */
  runsAs?: string;
  /** The backend whose server it pools connections to (PgBouncer: the advisory lock's PostgreSQL). */
  pools?: BackendName;
}
