/**
 * The nemesis: real faults on a running cluster, by host name.
 *
 *   partition(grudge) / heal()      nftables input drops inside host namespaces
 *   loss(a, b | bs, percent)        random drops on the links a-b (nft numgen), both ways
 *   pause(target) / resume(target)  SIGSTOP / SIGCONT a server or client process
 *   kill(target)                    kill -9 a server's process group or client processes
 *   restart(node, { delayMs })      kill -9 if running, wait, start with the full member list
 *   clockOffset(target, ms)         shift a process's wall clock (LD_PRELOAD library)
 *   delayProxy({ on, to, delayMs }) a userspace TCP proxy that delays one link
 *   evict(node, policy) / stopEvict memory pressure on a cache node until it evicts keys (./eviction.ts)
 *   endLockSessions(node)           end the sessions holding an advisory lock (./session-end.ts)
 *   healAll()                       the final healing step: network, pauses, clocks, delays
 *
 * A target is a server node name (`redis1`, `zk2`), a client host name (every
 * client process on it), or a ClientProcess. Limits, said where they bite:
 * the kernel has no netem (delay only by proxy); etcd is a Go program and
 * ignores LD_PRELOAD (no clock faults on etcd); kill -9 does not lose AOF
 * writes still in the page cache.
 */
import { PreflightError, UnsupportedFaultError } from '../hosts/cluster-errors.js';
import type { ClientHost, ClientProcess } from '../hosts/client-host.js';
import type { HostPlan } from '../../core/cluster/cluster-plan.js';
import type { ServerHandle } from '../hosts/driver.js';
import type { StateFile } from '../hosts/state-file.js';
import { writeClockOffset } from '../hosts/clock-file.js';
import type { EvictPolicy } from '../../core/generator/eviction.js';
import { pressureOn, type Pressure, type PressureOf } from './pressure.js';
import { endLockSessions, type SessionsEnded } from './session-end.js';
import type { PressureStarted, PressureSummary } from './redis-pressure.js';
import { startDelayProxy, type DelayProxy, type DelayProxyOptions } from './delay-proxy-handle.js';
import { Firewall } from './firewall.js';
import { grudgeHosts, type Grudge } from '../../core/generator/grudge.js';
import { LOSS_TABLE, lossScript, PARTITION_TABLE, partitionScript } from './nft-rules.js';

export type Target = string | ClientProcess;

/** What the nemesis needs to know about the cluster. */
export interface NemesisContext {
  state: StateFile;
  /** Path of nft, or undefined when nftables is missing. */
  nft: string | undefined;
  clockLibrary: string | undefined;
  host(name: string): HostPlan | undefined;
  node(name: string): ServerHandle | undefined;
  client(name: string): ClientHost | undefined;
  hostNames(): string[];
  /** Run an nft script on a host (containers: docker exec); default `ip netns exec`. */
  nftExec?: (namespace: string, script: string) => Promise<void>;
  /** Memory pressure on a cache node, by its backend (the backends' adapters: runtime/cluster/backends/registry.ts); without it no node is a cache. */
  pressure?: PressureOf;
}

export class Nemesis {
  private firewallInstance: Firewall | undefined;
  private readonly lossByLink = new Map<string, number>();
  private readonly paused = new Set<Target>();
  private readonly shiftedClocks = new Set<string>();
  private readonly proxies = new Set<DelayProxy>();
  private readonly pressures = new Map<string, Pressure>();
  private current: Grudge = {};
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: NemesisContext) {}

  /** The grudge in force. */
  get grudge(): Grudge {
    return this.current;
  }

  /** Replace the partition in force with `grudge` (an empty grudge heals). */
  partition(grudge: Grudge): Promise<void> {
    return this.serial(() => this.applyPartition(grudge));
  }

  private async applyPartition(grudge: Grudge): Promise<void> {
    const hosts = new Map(grudgeHosts(grudge).map((h) => [h, this.hostPlan(h)]));
    const fw = this.firewall();
    const wanted = new Map<string, string>();
    for (const [h, drops] of Object.entries(grudge)) {
      const ns = hosts.get(h)?.namespace as string;
      wanted.set(ns, partitionScript(drops.map((d) => hosts.get(d)?.ip as string)));
    }
    const namespaces = new Set([...wanted.keys(), ...fw.namespacesWith(PARTITION_TABLE)]);
    await Promise.all([...namespaces].map((ns) => fw.set(ns, PARTITION_TABLE, wanted.get(ns))));
    this.current = grudge;
  }

  /** Heal the network: no partition, no loss. */
  async heal(): Promise<void> {
    await this.partition({});
    await this.serial(async () => {
      const hosts = new Set([...this.lossByLink.keys()].flatMap((l) => l.split('|')));
      this.lossByLink.clear();
      await this.applyLoss([...hosts]);
    });
  }

  /**
   * Drop `percent` % of the packets between `a` and each of `others`, in each
   * direction; 0 removes it. A fault "around a node" is `loss(node, everyoneElse, p)`.
   */
  loss(a: string, others: string | readonly string[], percent: number): Promise<void> {
    lossScript([{ from: '0.0.0.0', percent }]); // validates percent before anything changes
    const bs = typeof others === 'string' ? [others] : [...others];
    for (const h of [a, ...bs]) this.hostPlan(h);
    return this.serial(async () => {
      for (const b of bs) {
        const key = [a, b].sort().join('|');
        if (percent === 0) this.lossByLink.delete(key);
        else this.lossByLink.set(key, percent);
      }
      await this.applyLoss([a, ...bs]);
    });
  }

  /** Rewrite the loss table of each host from the links in force. */
  private async applyLoss(hosts: readonly string[]): Promise<void> {
    const fw = this.firewall();
    await Promise.all(
      [...new Set(hosts)].map((name) => {
        const rules = [...this.lossByLink].flatMap(([link, pct]) => {
          const [x, y] = link.split('|');
          const other = x === name ? y : y === name ? x : undefined;
          return other === undefined ? [] : [{ from: this.hostPlan(other).ip, percent: pct }];
        });
        return fw.set(this.hostPlan(name).namespace, LOSS_TABLE, rules.length > 0 ? lossScript(rules) : undefined);
      }),
    );
  }

  /** Network changes run one at a time: two at once could each rewrite a table from a stale view. */
  private serial<T>(change: () => Promise<T>): Promise<T> {
    const run = this.queue.then(change, change);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async pause(target: Target): Promise<void> {
    await this.signal(target, 'SIGSTOP');
    this.paused.add(target);
  }

  async resume(target: Target): Promise<void> {
    await this.signal(target, 'SIGCONT');
    this.paused.delete(target);
  }

  /** kill -9 a server (its whole process group), or client processes (a ClientProcess, or all on a client host). */
  async kill(target: Target): Promise<void> {
    const node = typeof target === 'string' ? this.ctx.node(target) : undefined;
    if (node) return node.kill();
    const procs = this.clientProcesses(target);
    if (procs === undefined) this.hostPlan(target as string);
    await Promise.all((procs ?? []).map((p) => p.kill()));
  }

  /** kill -9 if running, wait `delayMs`, start with the full member list, wait until ready. */
  async restart(node: string, opts: { delayMs?: number } = {}): Promise<void> {
    await this.serverNode(node).restart(opts);
  }

  /** Shift the wall clock of a server or client process by `ms` (from the true time, not cumulative). */
  async clockOffset(target: Target, ms: number): Promise<void> {
    for (const file of this.clockFiles(target)) {
      writeClockOffset(file, ms);
      if (ms === 0) this.shiftedClocks.delete(file);
      else this.shiftedClocks.add(file);
    }
  }

  /** Start a delay proxy to a server; clients on host `on` connect to `proxy.host:proxy.port`. */
  async delayProxy(opts: DelayProxyOptions): Promise<DelayProxy> {
    const node = this.serverNode(opts.to);
    const on = opts.on === undefined || opts.on === 'control' ? undefined : this.ctx.client(opts.on);
    if (opts.on !== undefined && opts.on !== 'control' && on === undefined) {
      throw new UnsupportedFaultError(`A delay proxy runs on \`control\` or a client host; \`${opts.on}\` is neither.`, `Client hosts: ${this.clientNames()}.`);
    }
    const proxy = await startDelayProxy(opts, node, on);
    this.proxies.add(proxy);
    return proxy;
  }

  /** Memory pressure on a cache node, resolved once it evicts; `onLockKeyEvicted` hears each non-filler key it evicts. */
  async evict(node: string, policy: EvictPolicy, onLockKeyEvicted: (key: string) => void): Promise<PressureStarted> {
    if (this.pressures.has(node)) throw new UnsupportedFaultError(`${node} is already under memory pressure.`, 'Stop the evict fault on it first (stopEvict).');
    const p = pressureOn(this.serverNode(node), policy, onLockKeyEvicted, this.ctx.pressure);
    this.pressures.set(node, p);
    try {
      return await p.start();
    } catch (err) {
      // Settings may be half changed: put back what can be.
      await p.stop().catch(() => p.close());
      this.pressures.delete(node);
      throw err;
    }
  }

  /** End the sessions that hold an advisory lock on a PostgreSQL lock node: the pids ended. Nothing to undo. */
  endLockSessions(node: string): Promise<SessionsEnded> {
    return endLockSessions(this.serverNode(node));
  }

  /** The pressure off: settings restored, fillers deleted, what the window evicted. */
  async stopEvict(node: string): Promise<PressureSummary> {
    const p = this.pressures.get(node);
    if (!p) throw new UnsupportedFaultError(`${node} is not under memory pressure.`, 'Start the evict fault on it first.');
    this.pressures.delete(node);
    return p.stop();
  }

  /** The final healing step: heal the network, resume every paused process, clocks back to true time, no delays, no memory pressure. */
  async healAll(): Promise<void> {
    await this.heal();
    for (const t of [...this.paused]) await this.resume(t);
    for (const node of [...this.pressures.keys()]) await this.stopEvict(node).catch(() => undefined);
    for (const f of [...this.shiftedClocks]) writeClockOffset(f, 0);
    this.shiftedClocks.clear();
    // A proxy that died mid-run is already recorded as such (its death names it); the live ones still get their delay off.
    for (const p of this.proxies) if (p.died() === undefined) await p.setDelay(0);
  }

  /** Close the delay proxies (teardown). */
  async close(): Promise<void> {
    for (const p of this.pressures.values()) p.close();
    this.pressures.clear();
    await Promise.all([...this.proxies].map((p) => p.close()));
    this.proxies.clear();
  }

  private firewall(): Firewall {
    if (this.ctx.nft === undefined) {
      throw new PreflightError(
        'nftables (`nft`) is not installed: network faults are unavailable.',
        'Run `npm run setup` (it installs the Debian package nftables).',
      );
    }
    this.firewallInstance ??= new Firewall(this.ctx.state, this.ctx.nft, this.ctx.nftExec);
    return this.firewallInstance;
  }

  private hostPlan(name: string): HostPlan {
    const h = this.ctx.host(name);
    if (!h) throw new UnsupportedFaultError(`There is no host \`${name}\` in this cluster.`, `Hosts: ${this.ctx.hostNames().join(', ')}.`);
    return h;
  }

  private serverNode(name: string): ServerHandle {
    const n = this.ctx.node(name);
    if (!n) throw new UnsupportedFaultError(`There is no server node \`${name}\` in this cluster.`, `Hosts: ${this.ctx.hostNames().join(', ')}.`);
    return n;
  }

  private clientNames(): string {
    return (
      this.ctx
        .hostNames()
        .filter((h) => this.ctx.client(h))
        .join(', ') || '(none; add one with cluster.addClientHost(name))'
    );
  }

  private clientProcesses(target: Target): ClientProcess[] | undefined {
    if (typeof target !== 'string') return [target];
    return this.ctx.client(target)?.processes();
  }

  private async signal(target: Target, signal: 'SIGSTOP' | 'SIGCONT'): Promise<void> {
    const node = typeof target === 'string' ? this.ctx.node(target) : undefined;
    if (node) {
      if (signal === 'SIGSTOP') await node.pause();
      else await node.resume();
      return;
    }
    const procs = this.clientProcesses(target);
    if (procs === undefined) this.hostPlan(target as string);
    await Promise.all((procs ?? []).map((p) => (signal === 'SIGSTOP' ? p.pause() : p.resume())));
  }

  private clockFiles(target: Target): string[] {
    if (this.ctx.clockLibrary === undefined) {
      throw new PreflightError(
        'The clock library native/build/libfc-clock.so is not built: clock faults are unavailable.',
        'Run `npm run setup` (it compiles native/fc-clock.c with gcc).',
      );
    }
    const node = typeof target === 'string' ? this.ctx.node(target) : undefined;
    if (node && !node.spec.wallClockPreload) {
      throw new UnsupportedFaultError(
        `No clock faults on ${node.name}: etcd is a Go program, and Go reads the wall clock through the vDSO itself, ignoring LD_PRELOAD. Shifting it would need changing the machine's clock, which fencecheck never does.`,
        'Shift the clocks of lock clients, Redis, ZooKeeper or PostgreSQL instead (etcd leases run on the monotonic clock anyway).',
      );
    }
    const files = node ? [node.clockFile] : (this.clientProcesses(target) ?? (this.hostPlan(target as string), [])).map((p) => p.clockFile);
    const present = files.filter((f): f is string => f !== undefined);
    if (present.length === 0)
      throw new UnsupportedFaultError(
        `No process on \`${typeof target === 'string' ? target : target.name}\` runs with the clock library.`,
        'Start client processes with cluster.clientHost(name).spawn(argv) (clock: true is the default).',
      );
    return present;
  }
}
