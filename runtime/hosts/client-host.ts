/**
 * Client hosts: a namespace of its own per client, on the same switch as the
 * servers, so a client can be partitioned from servers or from the resource
 * like any other host. A lock client runs as its own OS process inside its
 * host (`spawn`), with the clock library preloaded and its own offset file, so
 * the nemesis can pause it (SIGSTOP) or shift its wall clock like a server's.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { createClockFile } from './clock-file.js';
import type { ProcessExit } from './cluster-errors.js';
import type { HostPlan } from '../../core/cluster/cluster-plan.js';
import { identify, isSameProcess, readProcessInfo, signalProcess, type ProcessIdentity } from './process-info.js';
import { runCommand, type CommandResult } from './run-command.js';
import { spawnInNamespace } from './spawn-in-namespace.js';
import type { StateFile } from './state-file.js';
import { stopProcesses } from './stop-processes.js';
import type { ChildProcess } from 'node:child_process';

export interface ClientRuntime {
  state: StateFile;
  clockLibrary: string | undefined;
  clockFile(name: string): string;
}

export interface ClientSpawnOptions {
  /** Unique process name (default `<host>-<n>`); names its clock file. */
  name?: string;
  env?: Record<string, string>;
  /** Append output here; without it stdout and stderr are pipes on `child`. */
  logPath?: string;
  cwd?: string;
  /** Preload the clock library (default true when it is built). */
  clock?: boolean;
  /** How teardown ends it (default SIGTERM, then SIGKILL after 1000 ms). */
  stopSignal?: NodeJS.Signals;
  graceMs?: number;
}

export interface ClientProcess {
  readonly name: string;
  readonly host: string;
  readonly pid: number;
  readonly identity: ProcessIdentity;
  /** The offset file when the clock library is preloaded. */
  readonly clockFile: string | undefined;
  readonly child: ChildProcess;
  readonly exited: Promise<ProcessExit>;
  /** The stop signal, then SIGKILL after the grace time. */
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT the process (namespaces), or freeze / thaw its container (containers). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** kill -9, waiting until it has ended. */
  kill(): Promise<void>;
  running(): boolean;
  /**
   * Record the program the process runs now. A process is identified by the
   * name of the program it was started with; a wrapper that execs another
   * (a script that `exec java …`) would then never be signalled again, so a
   * caller that knows the final program is running (its ready line came)
   * calls this. Returns the comm now recorded.
   */
  reidentify(): string;
}

export class ClientHost {
  private readonly procs: ClientProcess[] = [];
  private counter = 0;

  constructor(
    readonly plan: HostPlan,
    private readonly rt: ClientRuntime,
  ) {}

  get name(): string {
    return this.plan.name;
  }
  get namespace(): string {
    return this.plan.namespace;
  }
  get ip(): string {
    return this.plan.ip;
  }

  /** Processes started here that are still running. */
  processes(): ClientProcess[] {
    return this.procs.filter((p) => p.running());
  }

  /** Start a long-running client process inside this host. */
  spawn(argv: readonly string[], opts: ClientSpawnOptions = {}): ClientProcess {
    const name = opts.name ?? `${this.name}-${++this.counter}`;
    this.rt.state.assertOpen(`client process ${name}`);
    const useClock = (opts.clock ?? true) && this.rt.clockLibrary !== undefined;
    const clockFile = useClock ? this.rt.clockFile(name) : undefined;
    if (clockFile && !existsSync(clockFile)) createClockFile(clockFile);
    const env = { ...opts.env, ...(clockFile && this.rt.clockLibrary ? { LD_PRELOAD: this.rt.clockLibrary, FC_CLOCK_FILE: clockFile } : {}) };
    const spawned = spawnInNamespace({
      namespace: this.namespace,
      argv,
      env,
      ...(opts.logPath ? { logPath: opts.logPath } : {}),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    const identity = identify(spawned.pid, basename(argv[0] ?? '')) ?? { pid: spawned.pid, comm: '', startTime: -1 };
    const record = { ...identity, name, namespace: this.namespace, stopSignal: opts.stopSignal ?? 'SIGTERM', graceMs: opts.graceMs ?? 1000 };
    this.rt.state.update((s) => s.processes.push(record));
    let ended = false;
    void spawned.exited.then(() => {
      ended = true;
      this.rt.state.update((s) => (s.processes = s.processes.filter((p) => p.pid !== spawned.pid)));
    });
    const proc: ClientProcess = {
      name,
      host: this.name,
      pid: spawned.pid,
      identity,
      clockFile,
      child: spawned.child,
      exited: spawned.exited,
      running: () => !ended && isSameProcess(identity),
      stop: async () => {
        await stopProcesses([record]);
      },
      pause: async () => {
        if (isSameProcess(identity)) signalProcess(spawned.pid, 'SIGSTOP');
      },
      resume: async () => {
        if (isSameProcess(identity)) signalProcess(spawned.pid, 'SIGCONT');
      },
      kill: async () => {
        await stopProcesses([{ ...identity, name, stopSignal: 'SIGKILL', graceMs: 0 }]);
      },
      reidentify: () => {
        const info = readProcessInfo(spawned.pid);
        // Only the same process (same start time) that has exec'd another program.
        if (info === undefined || ended || info.startTime !== identity.startTime || info.comm === identity.comm) return identity.comm;
        identity.comm = record.comm = info.comm;
        this.rt.state.update((s) =>
          s.processes.filter((p) => p.pid === spawned.pid && p.startTime === identity.startTime).forEach((p) => (p.comm = info.comm)),
        );
        return identity.comm;
      },
    };
    this.procs.push(proc);
    return proc;
  }

  /** Run a short command inside this host and wait for it. */
  exec(argv: readonly string[], opts: { input?: string; timeoutMs?: number; reject?: boolean } = {}): Promise<CommandResult> {
    return runCommand('ip', ['netns', 'exec', this.namespace, ...argv], opts);
  }
}
