/**
 * A queue run in the lowest free slot (a queue run adopts no kept cluster, so
 * it need not wait for slot 0): two queue commands at once each get their own
 * slot, and so do the lanes of one queue hunt and a client-check; each waits up to
 * `busyTimeoutMs` when every slot is taken. A slot another process took
 * between the probe and the start is chosen again.
 */
import { MAX_SLOTS } from '../../core/cluster/slots.js';

export async function runInFreeSlot<T>(run: (slot: number) => Promise<T>, busyTimeoutMs: number, log: (line: string) => void): Promise<T> {
  const { chooseFreeSlot } = await import('../../runtime/cluster/free-slot.js');
  const { ClusterBusyError } = await import('../../runtime/hosts/cluster-errors.js');
  for (let attempt = 0; ; attempt++) {
    const chosen = await chooseFreeSlot(busyTimeoutMs, 0);
    try {
      if (chosen.slot !== 0) log(`cluster: slot ${chosen.slot} (slot 0 is another command's)`);
      return await run(chosen.slot);
    } catch (err) {
      if (!(err instanceof ClusterBusyError) || attempt >= MAX_SLOTS) throw err;
      log(`cluster: slot ${chosen.slot} was taken by another process meanwhile; choosing another`);
    } finally {
      chosen.release();
    }
  }
}
