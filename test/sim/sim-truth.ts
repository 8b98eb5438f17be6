/**
 * What really happened in a simulated run, as only the simulation can know:
 * every grant the lock service made (its token, in grant order), and every
 * write the resource applied, with the grant the writer was acting under and
 * whether a later grant already existed when the write landed (a stale write)
 * and how many increments the write destroyed (lock-counter: the counter it
 * overwrote minus the value it had read).
 */
import type { Token } from '../../runtime/clients/lock-client.js';

export interface SimGrant {
  /** 0, 1, 2...: the order of grants at the lock service. */
  seq: number;
  token: Token;
  atMs: number;
}

export interface AppliedWrite {
  token: Token | undefined;
  value: string;
  atMs: number;
  /** The writer's grant had been followed by another grant when the write was applied. */
  stale: boolean;
  /** The later grant's token, when stale. */
  supersededBy: Token | undefined;
  /** lock-counter: increments this write destroyed (counter before − value read); 0 otherwise. */
  lostIncrements: number;
}

export interface SimTruth {
  grants: SimGrant[];
  writes: AppliedWrite[];
  /** The resource's data at the end. */
  finalData: string;
}
