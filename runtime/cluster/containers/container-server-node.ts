/**
 * `ContainerServerNode`: a server node of any backend in a container of its
 * own, the server program its only process (`sh -c 'exec "$@" >>LOG'`, so
 * the program is PID 1 and a signal to the container is a signal to it).
 * The container joins its host container's network namespace
 * (`--network container:fc-<node>`), which owns the node's address and its
 * nft tables: a kill -9 and a restart keep the address and the partition in
 * force, as a namespace outlives its process.
 *
 * The run directory is bind-mounted at the same path, so the data dir, the
 * configuration the spec prepared, the log and the clock offset file are the
 * same files as under the namespaces provider; a restart (docker start of
 * the same container) keeps the data.
 *
 * pause / resume are `docker pause` / `unpause`: the cgroup freezer, not
 * SIGSTOP. The freezer stops every process of the container at once and no
 * process can see it (no SIGCHLD to a parent, no job-control state); it is
 * what the Docker API offers on every platform, Docker Desktop included.
 * For the server, the one process, the effect is SIGSTOP's: the kernel
 * still completes TCP connects into the backlog and nothing is answered.
 */
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Dockerode from 'dockerode';
import { createClockFile } from '../../hosts/clock-file.js';
import { describeExit } from '../../hosts/cluster-errors.js';
import { asUser, type ServerHandle } from '../../hosts/driver.js';
import { shellQuote } from '../../../core/shell-quote.js';
import { ServerNodeBase, type NodeRuntimeBase } from '../server-node-base.js';
import { hostContainerName, labelsFor, serverContainerName } from './container-labels.js';
import { IMAGE_CLOCK_LIBRARY } from './image-specs.js';
import { IMAGE_TOOLS } from './image-tools.js';
import { runtimeClient } from './runtime.js';

export interface ContainerNodeRuntime extends NodeRuntimeBase {
  runId: string;
  /** The servers image ref (content-hash tag). */
  image: string;
  clockFile(name: string): string;
  /** Host directories bind-mounted at the same path (the run dir, the shared data dir). */
  mounts: { source: string; target: string; mode: 'rw' }[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class ContainerServerNode extends ServerNodeBase<ContainerNodeRuntime> implements ServerHandle {
  private container: Dockerode.Container | undefined;
  private started = false;
  private paused = false;
  private command: string[] = [];
  /** Host pids are not ours to signal here: every fault goes through the container. */
  get pid(): undefined {
    return undefined;
  }
  get clockFile(): string | undefined {
    return this.spec.wallClockPreload ? this.rt.clockFile(this.name) : undefined;
  }
  get running(): boolean {
    return this.started && this.exit === undefined;
  }

  /** The container's state from the daemon: running, and frozen (`docker pause`). */
  async observe(): Promise<{ running: boolean; stopped: boolean }> {
    const s = this.container === undefined ? undefined : (await this.container.inspect().catch(() => undefined))?.State;
    return { running: s?.Running === true, stopped: s?.Paused === true };
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.rt.signal?.throwIfAborted();
    const clockFile = this.clockFile;
    if (clockFile && !existsSync(clockFile)) createClockFile(clockFile);
    mkdirSync(dirname(this.logPath), { recursive: true });
    this.exit = undefined;
    if (this.container) {
      appendFileSync(this.logPath, `=== fencecheck ${new Date().toISOString()}: docker start ${serverContainerName(this.plan)}\n`);
      await this.container.start();
    } else {
      const cmd = this.spec.command(this.plan, this.rt.ctx);
      const argv = cmd.user ? asUser(cmd.user, cmd.argv, IMAGE_TOOLS.setpriv) : cmd.argv;
      const env = { ...cmd.env, ...(clockFile ? { LD_PRELOAD: IMAGE_CLOCK_LIBRARY, FC_CLOCK_FILE: clockFile } : {}) };
      this.command = ['docker', 'run', '--network', `container:${hostContainerName(this.plan)}`, this.rt.image, ...argv];
      appendFileSync(this.logPath, `=== fencecheck ${new Date().toISOString()}: ${shellQuote(this.command)}\n`);
      const { GenericContainer } = await import('testcontainers');
      const started = await new GenericContainer(this.rt.image)
        .withName(serverContainerName(this.plan))
        .withNetworkMode(`container:${hostContainerName(this.plan)}`)
        .withCommand(['sh', '-c', 'exec "$@" >>"$0" 2>&1', this.logPath, ...argv])
        .withEnvironment(env)
        .withBindMounts(this.rt.mounts)
        .withLabels(labelsFor(this.rt.runId, 'server'))
        .withAutoCleanup(false)
        .start();
      this.container = (await runtimeClient()).container.getById(started.getId());
    }
    this.started = true;
    this.paused = false;
  }

  /**
   * Ask the daemon whether the server still runs, recording its exit if not.
   * Polled, not a `wait` request: a pending request would keep `fencecheck up`
   * alive after it has printed the endpoints.
   */
  private async refresh(): Promise<void> {
    if (!this.container || this.exit !== undefined) return;
    const s = (await this.container.inspect().catch(() => undefined))?.State;
    if (!s || !s.Running) this.exit = { code: s ? s.ExitCode : null, signal: null };
  }

  /** Poll until the container has stopped or `ms` passed; whether it stopped. */
  private async stopped(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      await this.refresh();
      if (this.exit !== undefined) return true;
      if (Date.now() >= deadline) return false;
      await sleep(50);
    }
  }

  protected async gone(): Promise<string | undefined> {
    await this.refresh();
    return this.running ? undefined : this.exit ? `${describeExit(this.exit)} while starting` : 'was not started';
  }

  protected described(): { node: string; command: string[] } {
    return { node: `${this.name} (${this.backend}, container ${serverContainerName(this.plan)})`, command: this.command };
  }

  async pause(): Promise<void> {
    if (!this.container || !this.running || this.paused) return;
    await this.container.pause();
    this.paused = true;
  }

  async resume(): Promise<void> {
    if (!this.container) return;
    // Thawed whoever froze it: the nemesis (`paused`), or anything a warm reset found frozen (it asked the daemon).
    if (!this.paused && !(await this.observe()).stopped) return;
    await this.container.unpause();
    this.paused = false;
  }

  /** Send `signal`, SIGKILL after `graceMs`, and wait until the container has stopped. */
  protected async end(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    const c = this.container;
    if (!c || !this.running) return;
    // A frozen container takes SIGKILL but nothing else until thawed.
    if (this.paused && signal !== 'SIGKILL') await this.resume();
    await c.kill({ signal }).catch(() => undefined);
    if (signal !== 'SIGKILL' && !(await this.stopped(graceMs))) await c.kill({ signal: 'SIGKILL' }).catch(() => undefined);
    if (this.paused) await this.resume().catch(() => undefined);
    await this.stopped(10_000);
    this.exit = { code: null, signal };
    this.paused = false;
  }
}
