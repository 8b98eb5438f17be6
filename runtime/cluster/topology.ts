/**
 * Apply a plan's topology to the machine and take it down (the thin layer
 * over `topology-script.ts`). Everything created is recorded in the state file
 * first, so an interrupted apply is still reclaimed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { ipBatch } from '../hosts/run-command.js';
import { namespacesOf, type ClusterPlan, type HostPlan } from '../../core/cluster/cluster-plan.js';
import { isSlotName } from '../../core/cluster/slots.js';
import { addUnique, type StateFile } from '../hosts/state-file.js';
import { hostScript, teardownScript, topologyScript, type TopologyScript } from './topology-script.js';

async function runScript(script: TopologyScript): Promise<void> {
  await ipBatch(script.root);
  // All namespaces at once: they are independent once the root batch has placed every veth end.
  await Promise.all([...script.perNamespace].map(([ns, lines]) => ipBatch(lines, { namespace: ns })));
}

/** Create the switch, the control's veth and every host of the plan. */
export async function applyTopology(plan: ClusterPlan, state: StateFile): Promise<void> {
  state.assertOpen('the topology');
  state.update((s) => {
    for (const ns of namespacesOf(plan)) addUnique(s.namespaces, ns);
    addUnique(s.rootLinks, plan.control.ifname);
  });
  await runScript(topologyScript(plan));
}

/** Attach one more host (a client) to a running topology. */
export async function applyHost(plan: ClusterPlan, host: HostPlan, state: StateFile): Promise<void> {
  state.assertOpen(`host ${host.name}`);
  state.update((s) => addUnique(s.namespaces, host.namespace));
  await runScript(hostScript(plan, host));
}

/**
 * Network namespaces whose name carries a slot's prefix (read from /run/netns, where `ip netns` keeps them); of
 * every slot when none is named (`down`, doctor), never of another slot than the one named (a reclaim of slot 0
 * must not touch slot 1's live cluster).
 */
export function projectNamespaces(slot?: number): string[] {
  try {
    return readdirSync('/run/netns')
      .filter((n) => isSlotName(n, slot))
      .sort();
  } catch {
    return [];
  }
}

/** Interfaces of the project in the root namespace (only the control's veth of each slot, normally). */
export function projectRootLinks(slot?: number): string[] {
  try {
    return readdirSync('/sys/class/net')
      .filter((n) => isSlotName(n, slot))
      .sort();
  } catch {
    return [];
  }
}

/** Delete namespaces and root links that still exist; failures of single lines do not stop the rest. */
export async function deleteTopology(namespaces: readonly string[], rootLinks: readonly string[]): Promise<void> {
  const links = rootLinks.filter((l) => existsSync(`/sys/class/net/${l}`));
  const present = new Set(projectNamespaces());
  await ipBatch(
    teardownScript(
      namespaces.filter((ns) => present.has(ns)),
      links,
    ),
    { force: true },
  );
}
