/**
 * The cluster plan: pure functions that name every namespace, interface and
 * address and give every server its ports. Nothing here touches the machine;
 * `topology.ts` applies a plan and `topology-script.ts` turns it into `ip`
 * commands.
 *
 * Address plan (one private /24, default 10.77.0.0/24, used only inside the
 * project's namespaces, never on a real interface, no default routes):
 *
 *   .1        the control process (root namespace, veth `fc-ctl`)
 *   .11       redis1                      .31-.33  etcd1-3
 *   .21-.25   redlock1-5                  .41-.43  zk1-3
 *   .51       pg1                         .61-.63  rs1-3 (redis-sentinel data nodes)
 *   .66-.68   sentinel1-3 (redis-sentinel) .71  pgl1 (pg-advisory: the lock's own PostgreSQL)
 *   .76       pgb1 (pgbouncer in front of pgl1) .81  mc1 (memcached)
 *   .100-.254 client hosts, in order added
 *
 * Every server has its own address, so each uses its standard port. Names:
 * namespace `fc-<node>` (clients `fc-c-<name>`), switch namespace `fc-sw` with
 * bridge `fc-br`; a host's veth is `fc-n<octet>` inside the host and
 * `fc-s<octet>` on the switch (at most 15 characters, as the kernel requires).
 */

import { slotPrefix, slotSubnet } from './slots.js';
import { BACKENDS, serverSystem, type BackendName } from '../systems/servers.js';
import type { NodeGroup } from '../systems/server-system.js';

/** Slot 0's prefix (the default cluster's); a plan's own is `plan.prefix` (core/cluster/slots.ts). */
export const PREFIX = 'fc-';
/** The backends, and each one's layout (its nodes, their stem, addresses and ports), are its ServerSystem in core/systems (servers.ts lists them). */
export { BACKENDS, type BackendName } from '../systems/servers.js';
export type { NodeGroup } from '../systems/server-system.js';

export function isBackendName(s: string): s is BackendName {
  return (BACKENDS as readonly string[]).includes(s);
}

/**
 * What a node is within its backend: `data` for every node that stores
 * (all nodes of most backends), `sentinel` for a Redis Sentinel, which only
 * watches the data nodes and promotes a replica.
 */
export type NodeRole = 'data' | 'sentinel';

/** How many nodes a backend has, Sentinels included. */
export function nodeCount(backend: BackendName): number {
  const layout = serverSystem(backend).layout;
  return layout.count + (layout.sentinels?.count ?? 0);
}

export const CONTROL_OCTET = 1;
export const FIRST_CLIENT_OCTET = 100;
export const LAST_CLIENT_OCTET = 254;

/** A network host: a server node or a client, each in its own namespace. */
export interface HostPlan {
  name: string;
  kind: 'server' | 'client';
  namespace: string;
  ip: string;
  /** The veth end inside the host's namespace. */
  ifname: string;
  /** The veth end on the switch. */
  switchIfname: string;
}

export interface NodePlan extends HostPlan {
  kind: 'server';
  backend: BackendName;
  /** 1-based position within its group (ZooKeeper's myid). */
  index: number;
  role: NodeRole;
  /** The port clients use. */
  port: number;
  ports: Record<string, number>;
}

export interface ClusterPlan {
  /** The slot this cluster runs in (core/cluster/slots.ts); 0 unless a command runs several at once. */
  slot: number;
  /** Every namespace and root interface of the plan starts with it: `fc-` in slot 0, `fc<s>-` in slot s. */
  prefix: string;
  /** The first three octets of the /24, e.g. `10.77.0`. */
  subnet: string;
  switchNamespace: string;
  bridge: string;
  control: { ip: string; ifname: string; switchIfname: string };
  nodes: NodePlan[];
  clients: HostPlan[];
}

export interface PlanOptions {
  backends: readonly BackendName[];
  /** A private /24 as `a.b.c.0/24`; default `10.77.0.0/24`. In slot s the plan takes the /24 s above it. */
  subnet?: string;
  /** Default 0. */
  slot?: number;
}

export const DEFAULT_SUBNET = '10.77.0.0/24';

/** Parse `a.b.c.0/24` into `a.b.c`; only private ranges, because the range must never clash with a real network. */
export function parseSubnet(cidr: string): string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.0\/24$/.exec(cidr);
  const octets = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [];
  const [a, b] = octets;
  const valid = m !== null && octets.every((o) => o <= 255) && a !== undefined && b !== undefined;
  const isPrivate = valid && (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168));
  if (!isPrivate) throw new RangeError(`Expected a private /24 such as \`10.77.0.0/24\`, got \`${cidr}\``);
  return octets.join('.');
}

function host(plan: Pick<ClusterPlan, 'subnet' | 'prefix'>, name: string, kind: HostPlan['kind'], namespace: string, octet: number): HostPlan {
  return { name, kind, namespace, ip: `${plan.subnet}.${octet}`, ifname: `${plan.prefix}n${octet}`, switchIfname: `${plan.prefix}s${octet}` };
}

/** The plan for a set of backends; each backend appears once, in the order given. */
export function planCluster(opts: PlanOptions): ClusterPlan {
  const slot = opts.slot ?? 0;
  const prefix = slotPrefix(slot);
  const subnet = parseSubnet(slotSubnet(opts.subnet ?? DEFAULT_SUBNET, slot));
  const at = { subnet, prefix };
  const backends = [...new Set(opts.backends)];
  const nodes = backends.flatMap((backend) => {
    const layout = serverSystem(backend).layout;
    const groups: [NodeGroup, NodeRole][] = [[layout, 'data'], ...(layout.sentinels ? [[layout.sentinels, 'sentinel'] as [NodeGroup, NodeRole]] : [])];
    return groups.flatMap(([group, role]) =>
      Array.from({ length: group.count }, (_, i): NodePlan => {
        const name = `${group.stem}${i + 1}`;
        return {
          ...host(at, name, 'server', `${prefix}${name}`, group.base + i + 1),
          kind: 'server',
          backend,
          index: i + 1,
          role,
          port: group.ports['client'] ?? 0,
          ports: { ...group.ports },
        };
      }),
    );
  });
  return {
    slot,
    prefix,
    subnet,
    switchNamespace: `${prefix}sw`,
    bridge: `${prefix}br`,
    control: { ip: `${subnet}.${CONTROL_OCTET}`, ifname: `${prefix}ctl`, switchIfname: `${prefix}sctl` },
    nodes,
    clients: [],
  };
}

const CLIENT_NAME = /^[a-z][a-z0-9-]{0,19}$/;

/** The next client host (pure: returns the host; the caller adds it to `plan.clients`). */
export function planClientHost(plan: ClusterPlan, name: string): HostPlan {
  if (!CLIENT_NAME.test(name)) {
    throw new RangeError(`Expected a client host name of lower-case letters, digits and dashes (at most 20), got \`${name}\``);
  }
  if (allHosts(plan).some((h) => h.name === name) || name === 'control') {
    throw new RangeError(`Host name \`${name}\` is already taken`);
  }
  const used = new Set(plan.clients.map((c) => Number(c.ip.split('.')[3])));
  for (let octet = FIRST_CLIENT_OCTET; octet <= LAST_CLIENT_OCTET; octet++) {
    if (!used.has(octet)) return host(plan, name, 'client', `${plan.prefix}c-${name}`, octet);
  }
  throw new RangeError(`No address left for client host \`${name}\` (at most ${LAST_CLIENT_OCTET - FIRST_CLIENT_OCTET + 1} clients)`);
}

/** Servers then clients. */
export function allHosts(plan: ClusterPlan): HostPlan[] {
  return [...plan.nodes, ...plan.clients];
}

export function nodesOf(plan: ClusterPlan, backend: BackendName): NodePlan[] {
  return plan.nodes.filter((n) => n.backend === backend);
}

/** Every namespace the plan creates: the switch first. */
export function namespacesOf(plan: ClusterPlan): string[] {
  return [plan.switchNamespace, ...allHosts(plan).map((h) => h.namespace)];
}
