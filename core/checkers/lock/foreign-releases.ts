/**
 * Foreign releases (pure): a holder whose release removed another holder's
 * lock.
 *
 * Some lock libraries release by deleting the key without checking that it
 * is still theirs (redis-lock's `DEL`, gated only by the client's own clock:
 * "my lease has not run out yet, so the key is mine"). When the releasing
 * holder's lease did run out and the lock went to someone else, that `DEL`
 * removes the new holder's key, and the next waiter is granted at once: two
 * holders, the second made by the first's release. Counted as two holders at
 * once only, it reads like any expiry; this names it.
 *
 * From the history alone, a release is foreign when:
 * - it completed ok, by a process A, after another process B was granted the
 *   lock (after A's own grant) and while B's hold was open (B had not begun
 *   to release, nor stopped);
 * - then a third grant, to C (neither A nor B), completed after A's release
 *   began and while B's hold was still open;
 * - and B's lease was still running when C was granted (B's grant plus its
 *   `lease_ms`): the lock could not have passed on by expiry, so what freed it
 *   for C was A's release.
 * Each such release counts once, with its witness (A, B, C and the times).
 */
import type { History } from '../../history/op.js';
import { holdsOf } from './holds.js';

export interface ForeignRelease {
  /** The process whose release removed the lock, and when it began (ns). */
  releaser: number;
  releaseAt: number;
  /** The holder whose lock it removed. */
  holder: number;
  /** The process granted while that holder still held, and when (ns). */
  granted: number;
  grantedAt: number;
}

/** Every release that removed another holder's lock, in the history's order. */
export function foreignReleases(history: History): ForeignRelease[] {
  const { holds } = holdsOf(history);
  const leaseNs = leasesByAcquire(history);
  const definite = holds.filter((h) => h.definite);
  const found: ForeignRelease[] = [];
  for (const a of holds) {
    const release = a.release;
    if (release === undefined || release.status !== 'ok') continue;
    const at = release.startTime;
    const b = definite.find((h) => h.process !== a.process && h.start > a.start && h.start < at && h.end > at);
    if (b === undefined) continue;
    const bLeaseEnd = b.start + (leaseNs.get(b.acquire.completeIndex ?? -1) ?? Infinity);
    const c = definite.find((h) => h.process !== a.process && h.process !== b.process && h.start > at && h.start < b.end && h.start < bLeaseEnd);
    if (c !== undefined) found.push({ releaser: a.process, releaseAt: at, holder: b.process, granted: c.process, grantedAt: c.start });
  }
  return found;
}

/** `lease_ms` of each ok acquire, by its completion's index, in ns (a grant without one: no lease known, never expired). */
function leasesByAcquire(history: History): Map<number, number> {
  const leases = new Map<number, number>();
  for (const op of history) if (op.f === 'acquire' && op.type === 'ok' && typeof op['lease_ms'] === 'number') leases.set(op.index, op['lease_ms'] * 1e6);
  return leases;
}

/** `c1's release removed c2's lock; c3 was granted 12 ms later while c2 still held`. */
export function describeForeignRelease(f: ForeignRelease): string {
  return `p${f.releaser}'s release removed p${f.holder}'s lock: p${f.granted} was granted ${((f.grantedAt - f.releaseAt) / 1e6).toFixed(0)} ms later, while p${f.holder} still held within its lease`;
}
