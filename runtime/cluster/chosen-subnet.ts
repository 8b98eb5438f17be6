/**
 * The cluster's /24: `up --subnet`, else FENCECHECK_SUBNET, else the plan's
 * default. Kept apart (and light) so that the CLI can refuse a bad variable
 * before a command makes anything, such as a run directory.
 */
import { UsageError } from '../../core/errors.js';
import { parseSubnet } from '../../core/cluster/cluster-plan.js';

/**
 * `up --subnet`, else FENCECHECK_SUBNET: every command that starts a cluster
 * (run, compare, scenario, client-check) honours the variable, so a machine
 * whose 10.77.0.0/24 is taken (a VPN, a Docker network) can still run them.
 */
export function chosenSubnet(flag: string | undefined, env: string | undefined = process.env['FENCECHECK_SUBNET']): string | undefined {
  if (flag) return flag;
  if (env === undefined || env === '') return undefined;
  try {
    parseSubnet(env);
  } catch {
    throw new UsageError(
      `Expected FENCECHECK_SUBNET to be a private /24 such as \`10.78.0.0/24\`, got \`${env}\``,
      'Unset it to use 10.77.0.0/24, or give another private /24.',
    );
  }
  return env;
}
