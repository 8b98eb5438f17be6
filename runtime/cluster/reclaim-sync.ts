/**
 * The last-resort teardown, synchronous because it runs in a process 'exit'
 * handler (no more event loop: after a crash, or an exit before teardown
 * finished). It does what `reclaim` does, blocking: each recorded process gets
 * its stop signal (PostgreSQL's fast shutdown frees its shared memory), then
 * SIGKILL after its grace time; every process inside a project namespace is
 * killed; abandoned shared-memory segments of recorded data dirs, the
 * namespaces, the control's veth and the data dirs are removed; the state
 * file goes last, so if even this is cut short, `down` finds the rest.
 */
import { spawnSync } from 'node:child_process';
import { removeDataDirsSync } from './data-dirs.js';
import { pidsInNamespaces } from './namespace-pids.js';
import { isSameProcess, readProcessInfo, signalProcess } from '../hosts/process-info.js';
import { removeAbandonedSegmentsSync } from './shared-memory.js';
import { StateFile } from '../hosts/state-file.js';
import { teardownScript } from './topology-script.js';
import { projectNamespaces, projectRootLinks } from './topology.js';
import { reclaimContainersSync } from './containers/reclaim-containers.js';

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Block this thread for `ms` (there is no event loop to wait on in an 'exit' handler). */
const blockFor = (ms: number): void => void Atomics.wait(pause, 0, 0, ms);

const ended = (pid: number, startTime?: number): boolean => {
  const info = readProcessInfo(pid);
  return info === undefined || info.state === 'Z' || (startTime !== undefined && info.startTime !== startTime);
};

function waitUntilEnded(procs: readonly { pid: number; startTime?: number }[], ms: number): void {
  const deadline = Date.now() + ms;
  while (procs.some((p) => !ended(p.pid, p.startTime)) && Date.now() < deadline) blockFor(20);
}

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
  waitUntilEnded(graceful, Math.max(0, ...graceful.map((r) => r.graceMs)));
  for (const rec of recorded) if (isSameProcess(rec)) signalProcess(rec.pid, 'SIGKILL');
  const namespaces = projectNamespaces(slot);
  const strays = [...pidsInNamespaces(namespaces).keys()];
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  waitUntilEnded([...recorded, ...strays.map((pid) => ({ pid }))], 3000);
  if (state?.provider === 'containers' && slot === 0) reclaimContainersSync();
  removeAbandonedSegmentsSync(state?.shmDataDirs ?? []);
  const script = teardownScript(namespaces, projectRootLinks(slot));
  if (script.length > 0) spawnSync('ip', ['-force', '-batch', '-'], { input: script.join('\n') + '\n', stdio: ['pipe', 'ignore', 'ignore'] });
  removeDataDirsSync(state);
  StateFile.discard(stateFile);
}
