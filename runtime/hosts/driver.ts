/**
 * The driver interface. Every server node of every backend is a `BackendNode`
 * (start, ready, stop, kill, restart, pause, resume, logs), implemented once by
 * `ServerNode` for any program; what differs per backend (configuration,
 * command line, readiness probe, how to stop it) is a `BackendSpec`, one file
 * per backend in `backends/`.
 */
import type { Tool } from './binaries.js';
import type { BackendName, ClusterPlan, NodePlan } from '../../core/cluster/cluster-plan.js';

export interface BackendNode {
  readonly name: string;
  readonly backend: BackendName;
  readonly plan: NodePlan;
  /** The server's pid while it runs (the pid `ip netns exec` started: it execs the server). */
  readonly pid: number | undefined;
  readonly logPath: string;
  /** The server's process runs (started, not stopped or killed, not exited on its own). */
  readonly running: boolean;
  /** Spawn the server in its namespace; does not wait for readiness. */
  start(): Promise<void>;
  /** Resolve once the node answers its backend's probe; ClusterStartError if it exits or times out. */
  ready(timeoutMs?: number): Promise<void>;
  /** Graceful stop: the backend's stop signal, then SIGKILL after its grace time. */
  stop(): Promise<void>;
  /** SIGKILL (the whole process group), and wait until it has ended. */
  kill(): Promise<void>;
  /** Kill -9 if running, wait `delayMs`, start with the same configuration (the full member list), wait ready. */
  restart(opts?: { delayMs?: number }): Promise<void>;
  /** SIGSTOP / SIGCONT to the process group (namespaces), or the container frozen and thawed (containers). */
  pause(): void | Promise<void>;
  resume(): void | Promise<void>;
  /** The last lines of the node's log. */
  logs(lines?: number): Promise<string[]>;
  /**
   * What the server's process is doing now, asked of the system (a warm cluster's reset reads every node so,
   * runtime/cluster/warm): its /proc state by pid (namespaces), or the container's state from the daemon.
   */
  observe(): Promise<{ running: boolean; stopped: boolean }>;
}

/**
 * A server node as the cluster, the nemesis and the delay proxy use it,
 * whatever provider runs it (ServerNode in a namespace, ContainerServerNode
 * in a container).
 */
export interface ServerHandle extends BackendNode {
  readonly spec: BackendSpec;
  /** The clock offset file when the clock library applies to this server. */
  readonly clockFile: string | undefined;
}

export interface NodeCommand {
  argv: string[];
  /** Run as this user (PostgreSQL refuses root). */
  user?: string;
  env?: Record<string, string>;
}

/** How to stop a server: send `signal`, then SIGKILL after `graceMs`. */
export interface StopPolicy {
  signal: NodeJS.Signals;
  graceMs: number;
}

export interface SpecContext {
  runDir: string;
  plan: ClusterPlan;
  tools: Partial<Record<Tool, string>>;
  dataDir(node: NodePlan): string;
  logPath(node: NodePlan): string;
  /** Run a short command on the node's host (its namespace, or its host container), e.g. initdb. */
  execOnHost(node: NodePlan, argv: readonly string[], opts?: { timeoutMs?: number }): Promise<unknown>;
  /** A user's ids where the node runs (the machine's, or the image's), or undefined if there is no such user. */
  userIds(name: string): Promise<{ uid: number; gid: number } | undefined>;
  /**
   * Where PostgreSQL's initdb template goes (this process's, shared by its clusters: backends/process-pg-template.ts),
   * when the nodes see this machine's files at the same paths (namespaces); absent where they do not (containers).
   */
  pgTemplate?: string;
}

export interface BackendSpec {
  backend: BackendName;
  /** The server's /proc/PID/comm once it runs. */
  comm: string;
  /** The programs (and jars) its servers need: the preflight asks for them. */
  tools: readonly Tool[];
  /** The Debian package whose version test.json records for it. */
  debianPackage: string;
  /** The scheme of its endpoints' URLs (`fencecheck up` prints them). */
  scheme: string;
  /**
   * The options its servers were started with, defaults filled, as a person
   * reads them (`redis persistence: none`): a kept cluster fits a run only
   * where these agree (runtime/cluster/kept-cluster.ts). Empty when it has none.
   */
  shape: Readonly<Record<string, string>>;
  /** False for Go programs (etcd): Go reads the clock through the vDSO itself and ignores LD_PRELOAD. */
  wallClockPreload: boolean;
  /** `stop()` mid-run. */
  stop: StopPolicy;
  /** The server creates a System V shared-memory segment named in its data dir's postmaster.pid (PostgreSQL). */
  sysvSharedMemory?: boolean;
  /** Teardown at the end of a run, when the data will not be used again. */
  teardown: StopPolicy;
  /** Once per cluster (not on restart): data dir, configuration files, initdb. */
  prepare(node: NodePlan, ctx: SpecContext): Promise<void>;
  command(node: NodePlan, ctx: SpecContext): NodeCommand;
  /** One readiness attempt; rejects while not ready. */
  probe(node: NodePlan): Promise<void>;
  /** One line for `fencecheck up`, e.g. `persistence aof-always`. */
  describe(): string;
  /** The role of the nodes a lock client connects to, when not every node (redis-sentinel: the Sentinels, which name the master). */
  clientRole?: string;
  /** Its half of a warm cluster's reset and clean check (runtime/cluster/warm/reset-cluster.ts does the general half). */
  reset: BackendReset;
  /** How it names its current leader or master, asked of the real servers (backends with one: core/systems LockSystem.leader). */
  leader?: LeaderProbe;
}

export interface ResetContext {
  plan: ClusterPlan;
  /** This backend's nodes. */
  nodes: readonly NodePlan[];
  log: (line: string) => void;
}

/**
 * A backend's part of a warm reset: `reset` clears the lock state and brings
 * roles back as planned, `check` says what is left. Both are asked over the
 * network, of the real servers.
 */
export interface BackendReset {
  /** Clear the lock state, roles back as planned; WarmResetError when it cannot (the pool then starts fresh). */
  reset(ctx: ResetContext): Promise<void>;
  /** The clean check: lock state left, nodes not answering, roles not as planned (each a line; none: clean). */
  check(ctx: ResetContext): Promise<string[]>;
}

/** A backend's leader probe: its nodes in, the leader's node name out (undefined: none agreed or none answered). */
export type LeaderProbe = (members: readonly NodePlan[]) => Promise<string | undefined>;

/** What a backend's file says of its servers; the registry adds its warm reset (runtime/cluster/backends/registry.ts: the reset modules import the spec modules, so the specs cannot import them back). */
export type ServerSpec = Omit<BackendSpec, 'reset'>;

/** A failure message as one line. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Prefix a command so it runs as `user` (setpriv execs, so the pid stays the program's). */
export function asUser(user: string, argv: readonly string[], setpriv = 'setpriv'): string[] {
  return [setpriv, `--reuid=${user}`, `--regid=${user}`, '--init-groups', '--', ...argv];
}
