/**
 * Where a cluster's hosts run: `namespaces` (network namespaces on this Linux
 * machine, as root; the default) or `containers` (a Docker daemon, through
 * testcontainers; runtime/cluster/containers). Its own file so the CLI can name the
 * choices, and what each allows, without loading the cluster library; each
 * provider's live half is its ClusterProvider (runtime/cluster/provider-registry.ts).
 */
export const PROVIDERS = ['namespaces', 'containers'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** What a command must know of a provider before it starts anything (pure). */
export interface ProviderFacts {
  /** Why it runs one cluster at a time (no slots, so `--parallel 1`), or undefined: a cluster a slot. */
  oneCluster?: { why: string; short: string };
  /** Why a cluster on it is not kept for the next command (`up --keep`, adoption): its clusters ___, not kept/adopted. */
  notKept?: string;
  /** How a person runs a command on a host, for `up`'s last lines. */
  hostShell: string;
  /**
   * Where the data of servers that run as another user (PostgreSQL) may go: `fast` (tmpfs, /dev/shm, when it has
   * room: runtime/hosts/paths.ts fastDataBase) or only `temp`, the system temp dir (a Docker daemon mounts those
   * paths at the same place in its containers, and a harness in a container sees the host's temp dir, not its shm).
   */
  sharedData: 'fast' | 'temp';
}

export const PROVIDER_FACTS: Record<ProviderName, ProviderFacts> = {
  namespaces: { hostShell: 'ip netns exec fc-<node>', sharedData: 'fast' },
  containers: {
    // Docker's names are machine-wide (the network `fc-net`, the containers `fc-<node>`, the labels reclaim goes by).
    oneCluster: {
      why: "its network (`fc-net`), container names and labels are one machine-wide set, not a slot's",
      short: 'its network and container names are machine-wide',
    },
    notKept: 'are reused within one command',
    hostShell: 'docker exec fc-<node>',
    sharedData: 'temp',
  },
};

/** The facts of a provider (the default, namespaces, when none is named). */
export function providerFacts(name: ProviderName | undefined): ProviderFacts {
  return PROVIDER_FACTS[name ?? 'namespaces'];
}

/** The provider a run names on its own, or undefined for the default (namespaces), which replays and run options leave out. */
export function nonDefaultProvider(name: ProviderName | undefined): ProviderName | undefined {
  return name === PROVIDERS[0] ? undefined : name;
}

/** `--provider` as a replay writes it: the default is left out, so replays written before providers existed read the same. */
export function providerFlag(name: ProviderName | undefined): string[] {
  const named = nonDefaultProvider(name);
  return named === undefined ? [] : ['--provider', named];
}
