/**
 * Where fencecheck itself (the harness) runs under the containers provider
 * (pure): on this machine (`host`), or inside the client image attached to
 * the run's network (`container`), or whichever works (`auto`, the default).
 *
 * Why: the harness connects to every node's planned address (readiness
 * probes, PostgreSQL's preparation, final reads). On Linux the host routes
 * to a bridge network; Docker Desktop (macOS, Windows), a remote daemon and
 * Docker-in-Docker do not, so there the harness must sit on the network.
 *
 * The choice comes from `--harness auto|host|container` on the commands that
 * run a cluster to the end (run, compare, scenario, client-check), else from
 * FENCECHECK_HARNESS. It is taken out of the arguments before the command
 * parses them: it decides which process runs the command, not what it does,
 * so it is not part of a run's plan or its replay line. `up` leaves a cluster
 * for this machine's programs, so it always runs here.
 */
import { UsageError } from '../../../core/errors.js';

export const HARNESS_CHOICES = ['auto', 'host', 'container'] as const;
export type HarnessChoice = (typeof HARNESS_CHOICES)[number];

/** The commands whose harness may run in a container: they start a cluster and tear it down themselves. */
export const HARNESS_COMMANDS = ['run', 'compare', 'scenario', 'client-check'] as const;

/** Set (only) for the harness inside its container: its own container name. It never nests again. */
export const HARNESS_CONTAINER_ENV = 'FENCECHECK_HARNESS_CONTAINER';
export const HARNESS_ENV = 'FENCECHECK_HARNESS';

export interface HarnessRequest {
  choice: HarnessChoice;
  /** The arguments without `--harness`. */
  args: string[];
  /** Whether this command line runs a cluster with the containers provider (else the choice has no effect). */
  containers: boolean;
  /** The command word (run, compare...), if any. */
  command: string | undefined;
  /** `--busy-timeout-ms` (0 when absent or not a count: the command itself refuses a bad one). */
  busyTimeoutMs: number;
}

function asChoice(value: string | undefined, from: string): HarnessChoice {
  if (value !== undefined && (HARNESS_CHOICES as readonly string[]).includes(value)) return value as HarnessChoice;
  throw new UsageError(
    `Expected \`${from}\` to be one of ${HARNESS_CHOICES.join(', ')}, got \`${value ?? ''}\``,
    "auto (the default) runs fencecheck in a container only when this machine cannot reach the containers' network.",
  );
}

/** Read `--harness` (and FENCECHECK_HARNESS) out of a command line (process.argv without node and the script). */
export function harnessRequest(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): HarnessRequest {
  const args: string[] = [];
  let flag: string | undefined;
  let sawFlag = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i));
      break;
    }
    if (a === '--harness') {
      sawFlag = true;
      flag = argv[++i];
    } else if (a.startsWith('--harness=')) {
      sawFlag = true;
      flag = a.slice('--harness='.length);
    } else args.push(a);
  }
  const command = args.find((a) => !a.startsWith('-'));
  const envValue = env[HARNESS_ENV];
  const choice = sawFlag ? asChoice(flag, '--harness') : envValue !== undefined && envValue !== '' ? asChoice(envValue, HARNESS_ENV) : 'auto';
  const provider = optionValue(args, '--provider');
  // Help, a dry run and run --plan start no cluster: nothing to probe, nowhere else to run.
  const startsNothing = args.some((a) => a === '--help' || a === '-h' || a === '--dry-run' || a === '--plan');
  const containers = provider === 'containers' && command !== undefined && (HARNESS_COMMANDS as readonly string[]).includes(command) && !startsNothing;
  if (sawFlag && choice === 'container' && !containers) {
    throw new UsageError(
      `\`--harness container\` applies to ${HARNESS_COMMANDS.join(', ')} with \`--provider containers\`, got \`${[command ?? '(no command)', ...(provider ? [`--provider ${provider}`] : [])].join(' ')}\``,
      '`up` always runs here (it leaves a cluster for this machine); the namespaces provider has no container network.',
    );
  }
  const busy = Number(optionValue(args, '--busy-timeout-ms'));
  return { choice, args, containers, command, busyTimeoutMs: Number.isSafeInteger(busy) && busy > 0 ? busy : 0 };
}

/** The value of an option's last occurrence (commander keeps the last one too). */
function optionValue(args: readonly string[], option: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === option) value = args[i + 1];
    else if (a.startsWith(`${option}=`)) value = a.slice(option.length + 1);
  }
  return value;
}

/** What a reachability probe of the run's network found (reachability.ts). */
export interface Reachability {
  reachable: boolean | undefined;
  /** In words: `ECONNREFUSED from 10.77.0.2:9 in 2 ms`, `no answer from 10.77.0.2:9 in 1500 ms`, `not probed: ...`. */
  detail: string;
}

export interface HarnessDecision {
  where: 'host' | 'container';
  why: string;
}

/**
 * Where the harness runs. `auto` goes into a container only on evidence that
 * this machine cannot reach the network; an inconclusive probe keeps it here,
 * where the cluster's own check (after fc-net exists) fails with a typed error
 * naming `--harness container`, rather than guessing.
 */
export function decideHarness(choice: HarnessChoice, reach: Reachability | undefined): HarnessDecision {
  if (choice === 'host') return { where: 'host', why: '--harness host' };
  if (choice === 'container') return { where: 'container', why: '--harness container' };
  if (reach === undefined || reach.reachable === undefined) return { where: 'host', why: `auto: ${reach?.detail ?? 'not probed'}; running here` };
  return reach.reachable
    ? { where: 'host', why: `auto: this machine reaches the containers' network (${reach.detail})` }
    : { where: 'container', why: `auto: this machine does not reach the containers' network (${reach.detail})` };
}
