/**
 * A replicated service on simulated nodes (etcd's Raft, ZooKeeper's Zab),
 * as far as the simulation needs it: one state, served by a node only while
 * it runs and reaches a majority of the nodes (itself included), and the
 * service's own time line for leases and sessions (monotonic: neither
 * follows the wall clock).
 */
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';
import type { SimTruth } from './sim-truth.js';

export abstract class SimQuorumService {
  constructor(
    readonly nodes: SimNode[],
    protected readonly net: SimNetwork,
    protected readonly truth: SimTruth,
    protected readonly lockName: string,
  ) {}

  protected get now(): number {
    return this.nodes[0]!.simMs;
  }

  /** Node `n` can commit: it runs and reaches a majority of the nodes (itself included). */
  hasQuorum(n: SimNode): boolean {
    const peers = this.nodes.filter((m) => m === n || (m.up && !m.proc.paused && this.net.canReach(n.name, m.name))).length;
    return n.up && peers * 2 > this.nodes.length;
  }
}
