/**
 * Names and labels of everything the containers provider creates (pure).
 *
 * Every network and container carries `org.fencecheck.project=fencecheck`
 * (what `down` and the next start reclaim by, whatever run made it) and
 * `org.fencecheck.run=<run id>`. Container names follow the namespace plan
 * (`fc-redis1` is redis1's host container, as `fc-redis1` is its namespace),
 * so the plan, the state file and the firewall keep their names; one cluster
 * per machine (the cluster lock) keeps them unique.
 */
import type { HostPlan } from '../../../core/cluster/cluster-plan.js';

export const PROJECT_LABEL = 'org.fencecheck.project';
export const RUN_LABEL = 'org.fencecheck.run';
export const ROLE_LABEL = 'org.fencecheck.role';
export const NETWORK_NAME = 'fc-net';

/** `harness`: fencecheck itself in its container (harness-argv.ts). */
export type ContainerRole = 'host' | 'server' | 'client' | 'harness';

/** A network's or a volume's labels: the project and the run (they have no role). */
export function runLabels(runId: string): Record<string, string> {
  return { [PROJECT_LABEL]: 'fencecheck', [RUN_LABEL]: runId };
}

/** A container's labels: the run's and its role. */
export function labelsFor(runId: string, role: ContainerRole): Record<string, string> {
  return { ...runLabels(runId), [ROLE_LABEL]: role };
}

/** Labels as `docker` CLI flags: `--label key=value` each. */
export function labelFlags(labels: Readonly<Record<string, string>>): string[] {
  return Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
}

/** The container that owns a host's network namespace and address (it only sleeps). */
export function hostContainerName(host: HostPlan): string {
  return host.namespace;
}

/** The container the server program runs in, in its host container's network namespace. */
export function serverContainerName(host: HostPlan): string {
  return `${host.namespace}-srv`;
}

/** A client process's container, in its client host container's network namespace. */
export function clientContainerName(host: HostPlan, processName: string): string {
  return `${host.namespace}-${processName}`.replace(/[^a-zA-Z0-9_.-]/g, '_');
}

/** A run id from the run directory's last component and the time (letters, digits, dashes). */
export function runIdOf(runDir: string, now: Date): string {
  const last = runDir.split('/').filter(Boolean).pop() ?? 'run';
  return `${last.replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 40)}-${now.getTime().toString(36)}`;
}
