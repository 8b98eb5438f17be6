/**
 * `ServerNode`: the one implementation of the driver interface, for any
 * backend. It spawns the spec's command in the node's namespace, records the
 * pid (with comm and start time) in the state file, probes until ready, and
 * stops, kills, restarts, pauses and resumes by pid, process group included.
 *
 * Every server except Go ones (etcd) runs with the project's clock library
 * preloaded and its own offset file, so the nemesis can shift its wall clock
 * at run time; the offset survives a restart.
 */
import { existsSync } from 'node:fs';
import { createClockFile } from '../hosts/clock-file.js';
import { describeExit } from '../hosts/cluster-errors.js';
import type { BackendNode } from '../hosts/driver.js';
import { identify, isSameProcess, readProcessInfo, signalProcess, type ProcessIdentity } from '../hosts/process-info.js';
import { spawnInNamespace, type SpawnedProcess } from '../hosts/spawn-in-namespace.js';
import type { StateFile } from '../hosts/state-file.js';
import { stopProcesses } from '../hosts/stop-processes.js';
import { within } from '../hosts/within.js';
import { ServerNodeBase, type NodeRuntimeBase } from './server-node-base.js';

export interface NodeRuntime extends NodeRuntimeBase {
  state: StateFile;
  /** The built LD_PRELOAD library, or undefined (then clock faults are unavailable). */
  clockLibrary: string | undefined;
  clockFile(name: string): string;
}

export class ServerNode extends ServerNodeBase<NodeRuntime> implements BackendNode {
  private proc: SpawnedProcess | undefined;
  private identity: ProcessIdentity | undefined;
  get pid(): number | undefined {
    return this.identity && this.exit === undefined ? this.identity.pid : undefined;
  }
  /** The clock offset file when the clock library applies to this server. */
  get clockFile(): string | undefined {
    return this.spec.wallClockPreload && this.rt.clockLibrary ? this.rt.clockFile(this.name) : undefined;
  }
  get running(): boolean {
    return this.identity !== undefined && this.exit === undefined && isSameProcess(this.identity);
  }

  /** Its /proc state: a zombie is not running, a SIGSTOPped one (`T`) is stopped. */
  async observe(): Promise<{ running: boolean; stopped: boolean }> {
    const info = this.pid === undefined ? undefined : readProcessInfo(this.pid);
    return { running: info !== undefined && info.state !== 'Z', stopped: info?.state === 'T' };
  }

  /**
   * Record the data dir of a server that makes a SysV segment before anything
   * can create one (initdb's bootstrap backend does too), so a reclaim after
   * any crash can find and remove it. Idempotent.
   */
  recordSharedMemory(): void {
    if (!this.spec.sysvSharedMemory) return;
    const dataDir = this.rt.ctx.dataDir(this.plan);
    this.rt.state.update((s) => (s.shmDataDirs = [...new Set([...(s.shmDataDirs ?? []), dataDir])]));
  }

  /**
   * Take over a server another fencecheck process started and left running
   * (`fencecheck up --keep`): its pid, comm and start time from the state
   * file. It is not our child, so its end is seen by polling /proc.
   */
  adopt(id: ProcessIdentity): void {
    this.proc = undefined;
    this.identity = id;
    this.exit = undefined;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.rt.signal?.throwIfAborted();
    this.rt.state.assertOpen(`server ${this.name}`);
    this.recordSharedMemory();
    const cmd = this.spec.command(this.plan, this.rt.ctx);
    const clockFile = this.clockFile;
    if (clockFile && !existsSync(clockFile)) createClockFile(clockFile);
    const env = { ...cmd.env, ...(clockFile && this.rt.clockLibrary ? { LD_PRELOAD: this.rt.clockLibrary, FC_CLOCK_FILE: clockFile } : {}) };
    this.exit = undefined;
    const proc = spawnInNamespace({
      namespace: this.plan.namespace,
      argv: cmd.argv,
      env,
      logPath: this.logPath,
      ...(cmd.user ? { user: cmd.user, setpriv: this.rt.ctx.tools.setpriv ?? 'setpriv' } : {}),
    });
    this.proc = proc;
    const id = identify(proc.pid, this.spec.comm);
    this.identity = id;
    if (id) {
      this.rt.state.update((s) => {
        s.processes = s.processes.filter((p) => p.name !== this.name);
        s.processes.push({
          ...id,
          name: this.name,
          namespace: this.plan.namespace,
          stopSignal: this.spec.teardown.signal,
          graceMs: this.spec.teardown.graceMs,
        });
      });
    }
    void proc.exited.then((exit) => {
      if (this.proc !== proc) return;
      this.exit = exit;
      this.rt.state.update((s) => (s.processes = s.processes.filter((p) => p.pid !== proc.pid)));
    });
  }

  protected async gone(): Promise<string | undefined> {
    return this.exit !== undefined ? `${describeExit(this.exit)} while starting` : this.proc === undefined ? 'was not started' : undefined;
  }

  protected described(): { node: string; command: string[] } {
    return { node: `${this.name} (${this.backend})`, command: this.proc?.command ?? [] };
  }

  pause(): void {
    if (this.identity && this.running) signalProcess(this.identity.pid, 'SIGSTOP');
  }

  resume(): void {
    if (this.identity && this.running) signalProcess(this.identity.pid, 'SIGCONT');
  }

  /** Stop with `signal`, SIGKILL after `graceMs`, and wait until the exit is seen. */
  protected async end(signal: NodeJS.Signals, graceMs: number): Promise<void> {
    const id = this.identity;
    const proc = this.proc;
    if (!id || !this.running) return;
    await stopProcesses([{ ...id, name: this.name, stopSignal: signal, graceMs }]);
    if (proc) {
      // The child's exit event (our own child: libuv reaps it) updates the state file.
      await within(proc.exited, 2000);
    } else {
      // An adopted server (stopProcesses waited for it to go): no exit event will come, so the record goes here.
      this.rt.state.update((s) => (s.processes = s.processes.filter((p) => p.pid !== id.pid)));
    }
    this.exit ??= { code: null, signal };
  }
}
