/**
 * The last-resort teardown, synchronous because it runs in a process 'exit'
 * handler (no more event loop): SIGKILL every recorded process that is still
 * the recorded one and every process inside a project namespace, delete the
 * namespaces and the control's veth, and drop the state file. The graceful
 * path is `Cluster.teardown()`; this one only runs when a program ends
 * without calling it.
 */
import { spawnSync } from 'node:child_process';
import { pidsInNamespaces } from './namespace-pids.js';
import { isSameProcess, signalProcess } from './process-info.js';
import { StateFile } from './state-file.js';
import { teardownScript } from './topology-script.js';
import { projectNamespaces, projectRootLinks } from './topology.js';

export function reclaimSync(stateFile: string): void {
  const state = StateFile.read(stateFile);
  for (const rec of state?.processes ?? []) if (isSameProcess(rec)) signalProcess(rec.pid, 'SIGKILL');
  const namespaces = projectNamespaces();
  for (const pid of pidsInNamespaces(namespaces).keys()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  const script = teardownScript(namespaces, projectRootLinks());
  if (script.length > 0) spawnSync('ip', ['-force', '-batch', '-'], { input: script.join('\n') + '\n', stdio: ['pipe', 'ignore', 'ignore'] });
  StateFile.discard(stateFile);
}
