/**
 * A simulated lease lock service with Redis's single-node semantics: SET NX
 * PX (the key is free, or its lease ran out: it is granted with a new
 * lease), compare-and-delete release, and expiry by time alone. A token is
 * issued with each grant: monotonic (a counter, as INCR, an etcd revision or
 * a ZooKeeper zxid) or unique (a random string, as Redlock's value). Every
 * grant is written to the truth.
 *
 * Memory pressure (the evict fault) as a full cache does it: the key held now
 * is evicted at once, and while the pressure lasts each new key lives at most
 * `PRESSURE_KEY_LIFE_MS` (newer fillers push it out), lease or not.
 */
import type { Prng } from '../../core/random/prng.js';
import type { TokenKind } from '../../core/checkers/lock/verdict.js';
import type { SimGrant, SimTruth } from './sim-truth.js';
import type { VirtualClock } from './virtual-clock.js';

export class SimLockService {
  private holder: { owner: string; grant: SimGrant; expiresAtMs: number } | undefined;
  private pressure = false;
  /** How long a key lasts on a full cache: the real fault's turnover (src/nemesis/eviction.ts), about 100 ms. */
  static readonly PRESSURE_KEY_LIFE_MS = 100;

  constructor(
    private readonly clock: VirtualClock,
    private readonly tokenKind: TokenKind,
    private readonly rng: Prng,
    private readonly truth: SimTruth,
  ) {}

  /** SET NX PX at the server: the new grant, or undefined while another lease runs. */
  trySet(owner: string, ttlMs: number): SimGrant | undefined {
    const now = this.clock.ms;
    if (this.holder !== undefined && this.holder.expiresAtMs > now) return undefined;
    const seq = this.truth.grants.length;
    // Monotonic tokens start above 0, as a fence column's initial 0 must not admit them twice.
    const token = this.tokenKind === 'monotonic' ? seq + 1 : `u${seq}-${this.rng.int(0, 1e9).toString(36)}`;
    const grant: SimGrant = { seq, token, atMs: now };
    this.truth.grants.push(grant);
    this.holder = { owner, grant, expiresAtMs: now + (this.pressure ? Math.min(ttlMs, SimLockService.PRESSURE_KEY_LIFE_MS) : ttlMs) };
    return grant;
  }

  /** Memory pressure on or off; on evicts the key held now. The keys evicted, as the real fault reports them. */
  setPressure(on: boolean): string[] {
    this.pressure = on;
    const evicted = on && this.holder !== undefined && this.holder.expiresAtMs > this.clock.ms ? ['lock'] : [];
    if (on) this.holder = undefined;
    return evicted;
  }

  /** The Lua compare-and-delete: true when the key still held `owner`'s value (and its lease had not run out). */
  compareAndDelete(owner: string): boolean {
    const h = this.holder;
    if (h === undefined || h.owner !== owner || h.expiresAtMs <= this.clock.ms) return false;
    this.holder = undefined;
    return true;
  }

  /** The grant that followed `grant`, if any: the lock had passed on. */
  successorOf(grant: SimGrant): SimGrant | undefined {
    return this.truth.grants[grant.seq + 1];
  }
}
