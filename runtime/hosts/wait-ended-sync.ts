/** Waiting for processes to end without an event loop (a process 'exit' handler): by blocking this thread between looks at /proc. */
import { readProcessInfo } from './process-info.js';

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Block this thread for `ms` (there is no event loop to wait on in an 'exit' handler). */
const blockFor = (ms: number): void => void Atomics.wait(pause, 0, 0, ms);

const ended = (pid: number, startTime?: number): boolean => {
  const info = readProcessInfo(pid);
  return info === undefined || info.state === 'Z' || (startTime !== undefined && info.startTime !== startTime);
};

/** Block until every process has ended (gone, a zombie, or its pid taken by another) or `ms` passed. */
export function waitUntilEndedSync(procs: readonly { pid: number; startTime?: number }[], ms: number): void {
  const deadline = Date.now() + ms;
  while (procs.some((p) => !ended(p.pid, p.startTime)) && Date.now() < deadline) blockFor(20);
}
