/**
 * End recorded processes: each gets its own stop signal, then SIGKILL after
 * its grace time, all in parallel. A signal goes out only while the pid still
 * names the recorded process (same comm, same start time), so a pid reused by
 * an unrelated program is never touched. A paused (SIGSTOP) process also gets
 * SIGCONT, or it would never act on the stop signal.
 */
import { isSameProcess, readProcessInfo, signalProcess, waitForExit } from './process-info.js';
import type { ProcessRecord } from './state-file.js';

export interface StopResult {
  /** Names that ended on their stop signal. */
  stopped: string[];
  /** Names that needed SIGKILL (after the grace time, or at once by policy). */
  killed: string[];
}

async function stopOne(rec: ProcessRecord): Promise<'stopped' | 'killed' | 'gone'> {
  if (!isSameProcess(rec)) return 'gone';
  if (rec.stopSignal !== 'SIGKILL') {
    signalProcess(rec.pid, rec.stopSignal);
    signalProcess(rec.pid, 'SIGCONT');
    if ((await waitForExit([rec], rec.graceMs)).length === 0) return 'stopped';
    if (!isSameProcess(rec)) return 'stopped';
  }
  signalProcess(rec.pid, 'SIGKILL');
  await waitForExit([rec], 5000);
  return 'killed';
}

export async function stopProcesses(records: readonly ProcessRecord[]): Promise<StopResult> {
  const outcomes = await Promise.all(records.map(async (r) => [r.name, await stopOne(r)] as const));
  return {
    stopped: outcomes.filter(([, o]) => o === 'stopped').map(([n]) => n),
    killed: outcomes.filter(([, o]) => o === 'killed').map(([n]) => n),
  };
}

/** SIGKILL processes found inside the project's namespaces, and wait for them. */
export async function killPids(pids: readonly number[]): Promise<number[]> {
  const procs = pids.flatMap((pid) => {
    const info = readProcessInfo(pid);
    return info && info.state !== 'Z' ? [{ pid, startTime: info.startTime }] : [];
  });
  for (const p of procs) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await waitForExit(procs, 5000);
  return procs.map((p) => p.pid);
}
