/**
 * What /proc says about a pid, and signalling only the processes we started.
 *
 * A pid alone does not name a process: after it exits the kernel may give the
 * same pid to another program. Every process fencecheck starts is recorded
 * with its command name (`/proc/PID/comm`) and its start time (field 22 of
 * `/proc/PID/stat`, clock ticks since boot, fixed for the life of the process
 * and unchanged by exec); a signal goes out only if both still match.
 */
import { readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  comm: string;
  /** R, S, D, T (stopped), Z (zombie), ... */
  state: string;
  ppid: number;
  pgrp: number;
  startTime: number;
}

/** What fencecheck records about a process it started. */
export interface ProcessIdentity {
  pid: number;
  comm: string;
  startTime: number;
}

/** Parse `/proc/PID/stat` text (pure). The comm is in parentheses and may itself hold spaces or parentheses. */
export function parseProcStat(text: string): ProcessInfo | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); field N is rest[N - 3].
  const [state, ppid, pgrp] = [rest[0], Number(rest[1]), Number(rest[2])];
  const startTime = Number(rest[19]);
  if (!Number.isInteger(pid) || state === undefined || !Number.isFinite(startTime)) return undefined;
  return { pid, comm: text.slice(open + 1, close), state, ppid, pgrp, startTime };
}

export function readProcessInfo(pid: number): ProcessInfo | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The programs that exec the real one (`ip netns exec`, then setpriv): for a
 * moment after spawn the recorded process still carries one of their names.
 */
const LAUNCHERS = ['ip', 'setpriv'];

/** True while the recorded process runs (a zombie has ended). */
export function isSameProcess(id: ProcessIdentity): boolean {
  const info = runningInfo(id);
  return info !== undefined && (info.comm === id.comm || LAUNCHERS.includes(info.comm));
}

/** True while the process of that pid and start time runs, whatever its name (a zombie has ended). */
export function isRunning(id: Pick<ProcessIdentity, 'pid' | 'startTime'>): boolean {
  return runningInfo(id) !== undefined;
}

function runningInfo(id: Pick<ProcessIdentity, 'pid' | 'startTime'>): ProcessInfo | undefined {
  const info = readProcessInfo(id.pid);
  return info !== undefined && info.state !== 'Z' && info.startTime === id.startTime ? info : undefined;
}

/** The identity of a process we just spawned, before it has exec'd its final program: pass the comm it will have. */
export function identify(pid: number, expectedComm: string): ProcessIdentity | undefined {
  const info = readProcessInfo(pid);
  return info === undefined ? undefined : { pid, comm: expectedComm.slice(0, 15), startTime: info.startTime };
}

/** This process as a cluster's state file records its owner (the fallback: /proc unreadable, which a reclaim then treats as gone). */
export function ownIdentity(): ProcessIdentity {
  return identify(process.pid, readFileSync('/proc/self/comm', 'utf8').trim()) ?? { pid: process.pid, comm: 'node', startTime: 0 };
}

/**
 * Signal a process and, if it leads its own process group (every process we
 * spawn does: it is started detached), the whole group, so that PostgreSQL's
 * backends stop with their postmaster. Returns false if the process is gone.
 */
export function signalProcess(pid: number, signal: NodeJS.Signals): boolean {
  const info = readProcessInfo(pid);
  if (info === undefined || info.state === 'Z') return false;
  try {
    process.kill(info.pgrp === pid ? -pid : pid, signal);
    return true;
  } catch {
    return false;
  }
}

function hasEnded(pid: number, startTime: number | undefined): boolean {
  const info = readProcessInfo(pid);
  return info === undefined || info.state === 'Z' || (startTime !== undefined && info.startTime !== startTime);
}

/** Wait until every pid has ended (gone or zombie); returns those still running after `timeoutMs`. */
export async function waitForExit(procs: readonly { pid: number; startTime?: number }[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let running = procs.filter((p) => !hasEnded(p.pid, p.startTime));
  while (running.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 15));
    running = running.filter((p) => !hasEnded(p.pid, p.startTime));
  }
  return running.map((p) => p.pid);
}
