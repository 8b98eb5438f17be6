/**
 * `ContainerClientHost`: a client host under the containers provider. The
 * host is a container that only sleeps and owns the client's address (and its
 * nft tables); every client process runs in a container of its own from the
 * client image, joined to the host's network namespace, so a partition of
 * the host cuts all its processes, and a pause or a kill hits one process, as
 * on namespaces.
 *
 * A process's stdio is the lock-client protocol, so it is started with the
 * docker CLI (`docker run -i`), which relays stdin and stdout: testcontainers
 * has no call that attaches a container's stdin. Pause is the freezer
 * (`docker pause`, see container-server-node.ts); kill is `docker kill`.
 * The client image has fencecheck's own Node programs (the built-in client,
 * the delay proxy) and the Python reference clients with Debian's Python
 * libraries; a `--client` command of another language (Go, Java) would need
 * an image of its own, which this provider does not build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ClientHost, type ClientProcess, type ClientRuntime, type ClientSpawnOptions } from '../../hosts/client-host.js';
import { UnsupportedFaultError, type ProcessExit } from '../../hosts/cluster-errors.js';
import { createClockFile } from '../../hosts/clock-file.js';
import { projectRoot } from '../../hosts/paths.js';
import type { HostPlan } from '../../../core/cluster/cluster-plan.js';
import type { CommandResult } from '../../hosts/run-command.js';
import { shellQuote } from '../../../core/shell-quote.js';
import { within } from '../../hosts/within.js';
import { clientContainerName, hostContainerName, labelFlags, labelsFor } from './container-labels.js';
import { docker } from './docker-cli.js';
import { CLIENT_IMAGE_ROOT, IMAGE_CLOCK_LIBRARY, IMAGE_NODE, IMAGE_PYTHON } from './image-specs.js';

export interface ContainerClientRuntime extends ClientRuntime {
  runId: string;
  /** What every container of the run mounts: the run dir and the shared data dir at their own paths, the clock volume. */
  mounts: readonly { source: string; target: string }[];
  /** The client image ref (content-hash tag). */
  image: string;
}

/**
 * A host argv as the client image runs it (pure): this Node, or a Python 3 (the Python reference clients,
 * whose libraries the image has from Debian), with this checkout's files mapped into the image; any other
 * program is not in the image (undefined).
 */
export function imageArgv(argv: readonly string[], execPath: string, root: string): string[] | undefined {
  const program = argv[0] ?? '';
  const inImage =
    program === execPath || program === 'node' ? IMAGE_NODE : /^(?:\/usr(?:\/local)?\/bin\/)?python3(?:\.\d+)?$/.test(program) ? IMAGE_PYTHON : undefined;
  if (inImage === undefined) return undefined;
  return [inImage, ...argv.slice(1).map((a) => (a.startsWith(`${root}/`) ? `${CLIENT_IMAGE_ROOT}/${a.slice(root.length + 1)}` : a))];
}

export class ContainerClientHost extends ClientHost {
  private readonly started: ClientProcess[] = [];
  private count = 0;

  constructor(
    plan: HostPlan,
    private readonly crt: ContainerClientRuntime,
  ) {
    super(plan, crt);
  }

  override processes(): ClientProcess[] {
    return this.started.filter((p) => p.running());
  }

  override spawn(argv: readonly string[], opts: ClientSpawnOptions = {}): ClientProcess {
    const name = opts.name ?? `${this.name}-${++this.count}`;
    this.crt.state.assertOpen(`client process ${name}`);
    const inImage = imageArgv(argv, process.execPath, projectRoot());
    if (!inImage) {
      throw new UnsupportedFaultError(
        `The containers provider runs Node and Python 3 clients (fencecheck's own and clients/python); \`${argv[0] ?? ''}\` is not in the client image.`,
        'Run a --client command of another language (the Go and Java reference clients too) with --provider namespaces.',
      );
    }
    const useClock = (opts.clock ?? true) && this.crt.clockLibrary !== undefined;
    const clockFile = useClock ? this.crt.clockFile(name) : undefined;
    if (clockFile && !existsSync(clockFile)) createClockFile(clockFile);
    const env: Record<string, string> = { ...opts.env, ...(clockFile ? { LD_PRELOAD: IMAGE_CLOCK_LIBRARY, FC_CLOCK_FILE: clockFile } : {}) };
    const container = clientContainerName(this.plan, name);
    const child = startLogged(this.runCommand(container, env, inImage), env, opts.logPath);
    const proc = containerProcess({ name, host: this.name, clockFile, child, container });
    this.started.push(proc);
    return proc;
  }

  /** `docker run` of a client container in its host container's network namespace, the run dir and clock volume mounted. */
  private runCommand(container: string, env: Record<string, string>, inImage: readonly string[]): string[] {
    return [
      'docker',
      'run',
      '-i',
      '--rm',
      '--name',
      container,
      '--network',
      `container:${hostContainerName(this.plan)}`,
      ...this.crt.mounts.flatMap((m) => ['-v', `${m.source}:${m.target}`]),
      '-w',
      CLIENT_IMAGE_ROOT,
      ...labelFlags(labelsFor(this.crt.runId, 'client')),
      // `-e NAME` takes the value from the CLI's environment: the config never appears in a process listing.
      ...Object.keys(env).flatMap((k) => ['-e', k]),
      this.crt.image,
      ...inImage,
    ];
  }

  override exec(argv: readonly string[], opts: { input?: string; timeoutMs?: number; reject?: boolean } = {}): Promise<CommandResult> {
    return docker(['exec', ...(opts.input !== undefined ? ['-i'] : []), hostContainerName(this.plan), ...argv], opts);
  }
}

/** The command started, its output to the log (headed by the command line) or to pipes. */
function startLogged(command: readonly string[], env: Record<string, string>, logPath: string | undefined): ChildProcess {
  let logFd: number | undefined;
  if (logPath) {
    mkdirSync(dirname(logPath), { recursive: true });
    logFd = openSync(logPath, 'a');
    writeSync(logFd, `=== fencecheck ${new Date().toISOString()}: ${shellQuote(command)}\n`);
  }
  const [file = 'docker', ...args] = command;
  const child = spawn(file, args, { stdio: logFd === undefined ? ['pipe', 'pipe', 'pipe'] : ['ignore', logFd, logFd], env: { ...process.env, ...env } });
  if (logFd !== undefined) closeSync(logFd);
  child.on('error', () => undefined);
  if (child.pid === undefined) throw new Error(`could not spawn ${shellQuote(command)}`);
  return child;
}

/** A client container as a ClientProcess: a pause is `docker pause` (the cgroup freezer), a kill `docker kill`. */
function containerProcess(c: { name: string; host: string; clockFile: string | undefined; child: ChildProcess; container: string }): ClientProcess {
  const { child, container } = c;
  let ended = false;
  const exited = new Promise<ProcessExit>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = true;
      resolve({ code, signal });
    }),
  );
  let paused = false;
  const quietly = (args: string[]): Promise<unknown> => docker(args, { reject: false }).catch(() => undefined);
  return {
    name: c.name,
    host: c.host,
    pid: child.pid!,
    identity: { pid: child.pid!, comm: 'docker', startTime: -1 },
    clockFile: c.clockFile,
    child,
    exited,
    running: () => !ended,
    stop: async () => {
      if (ended) return;
      if (paused) await quietly(['unpause', container]);
      await quietly(['stop', '-t', '1', container]);
      await within(exited, 5000);
    },
    pause: async () => {
      if (ended || paused) return;
      await docker(['pause', container]);
      paused = true;
    },
    resume: async () => {
      if (!paused) return;
      paused = false;
      await quietly(['unpause', container]);
    },
    kill: async () => {
      if (ended) return;
      await quietly(['kill', container]);
      if (paused) await quietly(['unpause', container]);
      paused = false;
      await within(exited, 10_000);
    },
    reidentify: () => 'docker',
  };
}
