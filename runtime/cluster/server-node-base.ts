/**
 * What a server node does the same on every provider (ServerNode: a process
 * in a namespace; ContainerServerNode: a container of its own): its names,
 * probing until ready, stop / kill / restart by the spec's policies, the tail
 * of its log, and the ClusterStartError that names it. Each provider's node
 * says only how it starts, how it ends one (`end`), why it is gone, and how
 * its failure is described.
 */
import { readFile } from 'node:fs/promises';
import type { NodePlan } from '../../core/cluster/cluster-plan.js';
import { ClusterStartError, type ProcessExit } from '../hosts/cluster-errors.js';
import type { BackendSpec, SpecContext } from '../hosts/driver.js';
import { probeUntilReady } from './probe-until-ready.js';

/** What every provider's node runtime gives a node. */
export interface NodeRuntimeBase {
  ctx: SpecContext;
  readyTimeoutMs: number;
  /** Aborted when the cluster gives up starting: start() and ready() then stop at once. */
  signal?: AbortSignal;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export abstract class ServerNodeBase<R extends NodeRuntimeBase> {
  /** How its server last ended, while it has not started again. */
  protected exit: ProcessExit | undefined;

  constructor(
    readonly plan: NodePlan,
    readonly spec: BackendSpec,
    protected readonly rt: R,
  ) {}

  get name(): string {
    return this.plan.name;
  }
  get backend(): NodePlan['backend'] {
    return this.plan.backend;
  }
  get logPath(): string {
    return this.rt.ctx.logPath(this.plan);
  }

  abstract get running(): boolean;
  abstract start(): Promise<void>;
  /** End the server with `signal`, SIGKILL after `graceMs`, and wait until its end is seen. */
  protected abstract end(signal: NodeJS.Signals, graceMs: number): Promise<void>;
  /** Why it cannot become ready (it ended, or was never started), or undefined while it may. */
  protected abstract gone(): Promise<string | undefined>;
  /** The node as a start error names it, and the command that started it. */
  protected abstract described(): { node: string; command: string[] };

  ready(timeoutMs = this.rt.readyTimeoutMs): Promise<void> {
    return probeUntilReady({
      timeoutMs,
      signal: this.rt.signal,
      gone: () => this.gone(),
      probe: () => this.spec.probe(this.plan),
      failure: (what, cause) => this.startError(what, cause),
    });
  }

  async stop(): Promise<void> {
    await this.end(this.spec.stop.signal, this.spec.stop.graceMs);
  }

  async kill(): Promise<void> {
    await this.end('SIGKILL', 0);
  }

  async restart(opts: { delayMs?: number } = {}): Promise<void> {
    if (this.running) await this.kill();
    if (opts.delayMs) await sleep(opts.delayMs);
    await this.start();
    await this.ready();
  }

  async logs(lines = 20): Promise<string[]> {
    try {
      return (await readFile(this.logPath, 'utf8')).trimEnd().split('\n').slice(-lines);
    } catch {
      return [];
    }
  }

  private async startError(what: string, cause?: unknown): Promise<ClusterStartError> {
    const hint = cause instanceof Error ? `The last probe said: ${cause.message}. Read the log above; \`fencecheck doctor\` checks the machine.` : undefined;
    const { node, command } = this.described();
    return new ClusterStartError({
      node,
      what,
      command,
      ...(this.exit ? { exit: this.exit } : {}),
      logPath: this.logPath,
      lastLogLines: await this.logs(12),
      ...(hint ? { hint } : {}),
      cause,
    });
  }
}
