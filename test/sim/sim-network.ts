/**
 * The simulated network between client hosts and server nodes: one-hop
 * latency, the grudge in force (as nftables drops), a delay per link (a
 * delay proxy) and packet loss per node (netem). A packet that cannot get
 * through waits until it can, as TCP retransmits after a heal; a lost
 * packet is resent after TCP's minimum retransmission timeout (200 ms), so
 * loss shows as delay, which is what a lossy link does to a connection.
 * Delivery runs the receiver's handler; whether the receiver is paused or
 * dead is its own process's business (sim-node.ts, sim-process.ts).
 */
import type { Grudge } from '../../core/generator/grudge.js';
import type { Prng } from '../../core/random/prng.js';
import type { VirtualClock } from './virtual-clock.js';

/** Linux's minimum TCP retransmission timeout. */
export const RTO_MS = 200;

export class SimNetwork {
  grudge: Grudge = {};
  /** ms a delay fault adds to each packet on a link, keyed `host node` (a delay proxy on that link). */
  readonly linkDelays = new Map<string, number>();
  /** Packet loss in percent, per node (its packets either way). */
  readonly loss = new Map<string, number>();
  private waiters: (() => void)[] = [];

  constructor(
    readonly clock: VirtualClock,
    private readonly rng: Prng,
  ) {}

  /** One hop, 0.2 to 2 ms. */
  latencyMs(): number {
    return 0.2 + this.rng.float() * 1.8;
  }

  canReach(from: string, to: string): boolean {
    return !(this.grudge[to]?.includes(from) ?? false) && !(this.grudge[from]?.includes(to) ?? false);
  }

  /** A packet from `from` to `to`: `deliver` runs on arrival, after any partition between them heals. */
  send(from: string, to: string, deliver: () => void): void {
    const delayMs = (this.linkDelays.get(`${from} ${to}`) ?? 0) + (this.linkDelays.get(`${to} ${from}`) ?? 0);
    const attempt = (): void => {
      if (!this.canReach(from, to)) return void this.waiters.push(attempt);
      const lossPct = Math.max(this.loss.get(from) ?? 0, this.loss.get(to) ?? 0);
      if (lossPct > 0 && this.rng.float() * 100 < lossPct) return void this.clock.setTimer(RTO_MS, attempt);
      deliver();
    };
    this.clock.setTimer(this.latencyMs() + delayMs, attempt);
  }

  /** The network changed (a partition healed): packets held back try again. */
  changed(): void {
    for (const retry of this.waiters.splice(0)) retry();
  }
}
