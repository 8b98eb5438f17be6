/**
 * What really happened in a simulated run, as only the simulation can know,
 * told by the simulated servers as they act: every grant (the moment the
 * lock passed to a process by the service's own rules: a SET NX that won, a
 * Redlock value that reached a majority, an etcd key created, a ZooKeeper
 * node first in its queue), with its token once known (Redis's INCR comes in
 * a second round trip), when the holder's release took effect at the
 * service, and every write the resource applied, with the grant its writer
 * was acting under and whether a later grant already existed when it landed
 * (a stale write) and how many increments it destroyed (lock-counter).
 */
import type { Token } from '../../runtime/clients/lock-client.js';

export interface SimGrant {
  /** 0, 1, 2...: the order of grants at the lock service. */
  seq: number;
  /** The client process it went to. */
  process: string;
  /** Undefined until the holder took it (Redis: its INCR). */
  token: Token | undefined;
  atMs: number;
  /** When its holder's release took effect at the service (it let go before anyone else got it). */
  releasedAtMs?: number;
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

/** A resource access that took effect (a read answered, a write or mark applied, a claim that raised the fence), outside a transaction. */
export interface AppliedAccess {
  /** The token of the grant its client acted under then. */
  token: Token | undefined;
  atMs: number;
}

export class SimTruth {
  readonly grants: SimGrant[] = [];
  readonly writes: AppliedWrite[] = [];
  /** Every access that took effect at the resource, in the order it did (interleaved sections are held against it). */
  readonly accesses: AppliedAccess[] = [];
  /** The resource's data at the end. */
  finalData = '';
  private readonly latest = new Map<string, SimGrant>();
  /** The token each process was told it holds (its last ok acquire). */
  private readonly acting = new Map<string, Token>();

  /** What each process is serving now (a release at the service counts only while it serves a release). */
  readonly serving = new Map<string, string>();

  /** The process answered an acquire ok with `token`: from now on it acts under that grant. */
  actsUnder(process: string, token: Token): void {
    this.acting.set(process, token);
  }

  grant(process: string, atMs: number, token?: Token): SimGrant {
    const g: SimGrant = { seq: this.grants.length, process, token, atMs };
    this.grants.push(g);
    this.latest.set(process, g);
    return g;
  }

  /** The token of the process's latest grant, if it has none yet (Redis: the INCR after the SET). */
  tokenTaken(process: string, token: Token): void {
    const g = this.latest.get(process);
    if (g !== undefined && g.token === undefined) g.token = token;
  }

  /** The grant the process acts under, released at the service now by its release (if nobody else got the lock since). */
  released(process: string, atMs: number): void {
    // Its own delayed unlock of an abandoned attempt, or a session it closed later, is not the holder letting go.
    if (this.serving.get(process) !== 'release') return;
    const g = this.grantOf(process);
    if (g !== undefined && this.successorOf(g) === undefined) g.releasedAtMs ??= atMs;
  }

  /** The grant a process acts under: the latest one to it with the token it was told, else its latest one. */
  grantOf(process: string): SimGrant | undefined {
    const token = this.acting.get(process);
    const told = token === undefined ? undefined : this.grants.findLast((g) => g.process === process && g.token === token);
    return told ?? this.latest.get(process);
  }

  byToken(token: Token): SimGrant | undefined {
    return this.grants.find((g) => g.token === token);
  }

  /** Every grant after `grant`, in the service's order. */
  laterGrants(grant: SimGrant): SimGrant[] {
    return this.grants.slice(grant.seq + 1);
  }

  /** The grant that followed `grant`, if any: the lock had passed on. */
  successorOf(grant: SimGrant): SimGrant | undefined {
    return this.grants[grant.seq + 1];
  }
}
