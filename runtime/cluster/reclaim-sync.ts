/**
 * The last-resort teardown, synchronous because it runs in a process 'exit'
 * handler (no more event loop: after a crash, or an exit before teardown
 * finished). It does what `reclaim` does, blocking: each recorded process gets
 * its stop signal (PostgreSQL's fast shutdown frees its shared memory), then
 * SIGKILL after its grace time; each provider removes its own leftovers
 * (provider-leftovers.ts: every process inside a project namespace killed, the
 * namespaces and the control's veth removed; the containers); abandoned
 * shared-memory segments of recorded data dirs and the data dirs are removed;
 * the state file goes last, so if even this is cut short, `down` finds the rest.
 */
import { removeDataDirsSync } from './data-dirs.js';
import { isSameProcess, signalProcess } from '../hosts/process-info.js';
import { removeAbandonedSegmentsSync } from './shared-memory.js';
import { StateFile } from '../hosts/state-file.js';
import { waitUntilEndedSync } from '../hosts/wait-ended-sync.js';
import { PROVIDER_LEFTOVERS } from './provider-leftovers.js';

export function reclaimSync(stateFile: string, slotGiven?: number): void {
  const state = StateFile.read(stateFile);
  // Only this slot's names: a neighbour slot's cluster lives on (core/cluster/slots.ts).
  const slot = slotGiven ?? state?.slot ?? 0;
  const recorded = (state?.processes ?? []).filter((rec) => isSameProcess(rec));
  const graceful = recorded.filter((rec) => rec.stopSignal !== 'SIGKILL');
  for (const rec of graceful) {
    signalProcess(rec.pid, rec.stopSignal);
    signalProcess(rec.pid, 'SIGCONT');
  }
  waitUntilEndedSync(graceful, Math.max(0, ...graceful.map((r) => r.graceMs)));
  for (const rec of recorded) if (isSameProcess(rec)) signalProcess(rec.pid, 'SIGKILL');
  for (const leftovers of Object.values(PROVIDER_LEFTOVERS)) leftovers.reclaimSync(state, slot);
  waitUntilEndedSync(recorded, 3000);
  removeAbandonedSegmentsSync(state?.shmDataDirs ?? []);
  removeDataDirsSync(state);
  StateFile.discard(stateFile);
}
