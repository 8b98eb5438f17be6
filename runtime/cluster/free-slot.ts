/**
 * Choosing a free slot for one more cluster of this process (a lane of a
 * parallel command): the lowest slot whose lock nobody holds and which does not
 * keep a cluster `fencecheck up --keep` left (that one waits for its adopter).
 * The probe takes the slot's lock and lets it go at once; the start takes it
 * again, so another process can win the slot in between: the start then says
 * ClusterBusyError and the caller asks again (free-slot's retry in WarmPool).
 * Slots this process has chosen and not yet given back are skipped: two lanes
 * probing together never choose one slot.
 */
import { MAX_SLOTS } from '../../core/cluster/slots.js';
import { defaultStateFile } from '../hosts/paths.js';
import { StateFile } from '../hosts/state-file.js';
import { ClusterBusyError } from '../hosts/cluster-errors.js';
import { tryClusterLock } from './cluster-lock.js';
import { keptOf } from './kept-cluster.js';

const chosen = new Set<number>();

export interface ChosenSlot {
  slot: number;
  /** Give the slot back to this process's choosers (after its cluster is torn down). */
  release(): void;
}

/** A free slot, waiting up to `waitMs` for one; ClusterBusyError when every slot stays taken. */
export async function chooseFreeSlot(waitMs: number, prefer?: number): Promise<ChosenSlot> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const slot = await probeFree(prefer);
    if (slot !== undefined) {
      chosen.add(slot);
      let released = false;
      return { slot, release: () => void (released || ((released = true), chosen.delete(slot))) };
    }
    if (Date.now() >= deadline) throw new ClusterBusyError(undefined, `every slot, ${MAX_SLOTS} of them, is taken`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function probeFree(prefer: number | undefined): Promise<number | undefined> {
  const order = Array.from({ length: MAX_SLOTS }, (_, i) => i);
  if (prefer !== undefined) order.unshift(...order.splice(prefer, 1));
  for (const slot of order) {
    if (chosen.has(slot) || keptOf(StateFile.read(defaultStateFile(slot)))) continue;
    const lock = await tryClusterLock(slot);
    if (!lock) continue;
    await lock.release();
    return slot;
  }
  return undefined;
}
