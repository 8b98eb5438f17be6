/**
 * The cluster flags of `up` and `doctor`, checked before anything touches the
 * machine. The planner (core/cluster/cluster-plan.ts) is pure and throws RangeError on
 * a bad subnet or client name; here that becomes a UsageError (254) naming the
 * flag, instead of reaching the CLI as an internal error (255).
 */
import { DEFAULT_SUBNET, parseSubnet, planClientHost, planCluster, type BackendName } from '../../core/cluster/cluster-plan.js';
import { UsageError } from '../../core/errors.js';

/** `--subnet a.b.c.0/24`, a private /24 (commander option parser). */
export function subnetFlag(flag: string) {
  return (text: string): string => {
    try {
      parseSubnet(text);
    } catch {
      throw new UsageError(
        `Expected \`${flag}\` to be a private /24 such as \`${DEFAULT_SUBNET}\`, got \`${text}\``,
        'Use 10.x.y.0/24, 172.16-31.y.0/24 or 192.168.y.0/24, with the last octet 0.',
      );
    }
    return text;
  };
}

/** Plan the cluster on paper: a client name that is malformed, repeated or taken by a server is a UsageError. */
export function assertClusterPlan(backends: readonly BackendName[], subnet: string | undefined, clients: readonly string[]): void {
  const plan = planCluster({ backends, ...(subnet ? { subnet } : {}) });
  for (const name of clients) {
    try {
      plan.clients.push(planClientHost(plan, name));
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      throw new UsageError(
        `Expected \`--client\` names to be distinct host names, not the servers': ${err.message}`,
        'Name each client host once, e.g. --client c1,c2.',
      );
    }
  }
}
