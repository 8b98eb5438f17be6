/**
 * The simulated network and servers' availability: which client host reaches
 * which server node (the grudge in force, as nftables would drop), which
 * server nodes are paused, and the latency of one hop. A request that cannot
 * get through waits until it can (TCP retransmits after a heal; a stopped
 * server reads its socket at resume) unless its sender gives up first.
 */
import type { Grudge } from '../../core/generator/grudge.js';
import type { Prng } from '../../core/random/prng.js';
import type { VirtualClock } from './virtual-clock.js';

export class SimNetwork {
  grudge: Grudge = {};
  readonly pausedNodes = new Set<string>();
  /** ms a delay fault adds to each request on a link, keyed `host node` (a delay proxy on that link). */
  readonly linkDelays = new Map<string, number>();
  private waiters: (() => void)[] = [];

  constructor(
    readonly clock: VirtualClock,
    private readonly rng: Prng,
  ) {}

  /** One hop, 0.2 to 2 ms. */
  latencyMs(): number {
    return 0.2 + this.rng.float() * 1.8;
  }

  canReach(from: string, node: string): boolean {
    if (this.pausedNodes.has(node)) return false;
    return !(this.grudge[node]?.includes(from) ?? false) && !(this.grudge[from]?.includes(node) ?? false);
  }

  /**
   * Deliver a request from `from` to the service on `nodes` (it needs a
   * majority of them): `apply` runs at the servers after one hop, as soon as
   * the majority is reachable. The answer travels back through `reply`.
   */
  send(from: string, nodes: readonly string[], apply: () => void): void {
    const attempt = (): void => {
      const up = nodes.filter((n) => this.canReach(from, n)).length;
      if (up * 2 > nodes.length) this.clock.setTimer(this.latencyMs(), apply);
      else this.waiters.push(attempt);
    };
    // A delayed link slows the request by the largest delay on the way to the nodes it needs.
    const delayMs = Math.max(0, ...nodes.map((n) => this.linkDelays.get(`${from} ${n}`) ?? 0));
    this.clock.setTimer(this.latencyMs() + delayMs, attempt);
  }

  /** The network or a server changed: requests held back try again. */
  changed(): void {
    for (const retry of this.waiters.splice(0)) retry();
  }
}
