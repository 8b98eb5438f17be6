/**
 * PostgreSQL's System V shared-memory segment, which outlives a postmaster
 * killed with SIGKILL (kill -9, or the last resort of a teardown): nobody
 * removes it, and every leaked run kept one until the machine rebooted.
 *
 * Which segment is ours: the state file records each PostgreSQL data dir
 * before the server starts; the postmaster writes the key and id of the
 * segment it creates into `<dataDir>/postmaster.pid` (line 7) right after
 * creating it. A segment is removed only if its key AND id equal that line of
 * a recorded data dir and nobody is attached to it any more (nattch 0), so a
 * segment of another PostgreSQL on the machine, or of a server still running,
 * is never touched. (A postmaster killed in the microseconds between
 * creating its segment and writing that line would leak it; nothing else
 * names it safely.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../hosts/run-command.js';

export interface ShmSegment {
  key: number;
  shmid: number;
  /** Processes attached now. */
  nattch: number;
  /** The creator's pid. */
  cpid: number;
}

export interface SegmentClaim {
  key: number;
  /** The id postmaster.pid names; undefined for a claim by the data dir's inode alone (no postmaster.pid yet). */
  shmid: number | undefined;
  /** The data dir whose postmaster.pid names the segment. */
  dataDir: string;
}

/** `/proc/sysvipc/shm` (pure): a header line, then `key shmid perms size cpid lpid nattch ...` per segment. */
export function parseSysvShm(text: string): ShmSegment[] {
  const [header, ...rows] = text.trim().split('\n');
  const cols = (header ?? '').trim().split(/\s+/);
  const at = (name: string): number => cols.indexOf(name);
  if (at('key') < 0 || at('shmid') < 0 || at('nattch') < 0) return [];
  return rows.flatMap((row) => {
    const f = row.trim().split(/\s+/).map(Number);
    const seg = { key: f[at('key')]!, shmid: f[at('shmid')]!, nattch: f[at('nattch')]!, cpid: f[at('cpid')] ?? 0 };
    return [seg.key, seg.shmid, seg.nattch].every(Number.isInteger) ? [seg] : [];
  });
}

/** The segment line (7th) of a postmaster.pid (pure): `  <key>  <shmid>`, or undefined before it is written. */
export function postmasterSegment(pidFileText: string): { key: number; shmid: number } | undefined {
  const line = pidFileText.split('\n')[6]?.trim() ?? '';
  const m = /^(-?\d+)\s+(\d+)$/.exec(line);
  return m ? { key: Number(m[1]), shmid: Number(m[2]) } : undefined;
}

/** The segments that are ours and abandoned (pure but for `isAlive`): key and id claimed by a recorded data dir (or key alone, creator gone), nobody attached. */
export function abandonedSegments(segments: readonly ShmSegment[], claims: readonly SegmentClaim[], isAlive: (pid: number) => boolean = alive): ShmSegment[] {
  // Keys compared as unsigned: /proc prints them signed, postmaster.pid unsigned.
  return segments.filter(
    (s) => s.nattch === 0 && claims.some((c) => c.key >>> 0 === s.key >>> 0 && (c.shmid === undefined ? !isAlive(s.cpid) : c.shmid === s.shmid)),
  );
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * What the recorded data dirs claim: the segment their postmaster.pid names
 * (a cleanly stopped server removed its file and its segment), or, with no
 * postmaster.pid naming one (initdb's bootstrap backend, a postmaster killed
 * before it wrote the line), a segment keyed by the data dir's inode, which is
 * the key PostgreSQL derives its segment's from, whose creator is gone.
 */
export function segmentClaims(dataDirs: readonly string[]): SegmentClaim[] {
  return dataDirs.flatMap((dataDir): SegmentClaim[] => {
    const text = readText(join(dataDir, 'postmaster.pid'));
    const seg = text === undefined ? undefined : postmasterSegment(text);
    if (seg) return [{ ...seg, dataDir }];
    const ino = inodeOf(dataDir);
    return ino === undefined ? [] : [{ key: ino, shmid: undefined, dataDir }];
  });
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  return pid > 0 && existsSync(`/proc/${pid}`);
}

function leaked(dataDirs: readonly string[]): ShmSegment[] {
  const claims = segmentClaims(dataDirs);
  return claims.length === 0 ? [] : abandonedSegments(parseSysvShm(readText('/proc/sysvipc/shm') ?? ''), claims);
}

const describeSegment = (s: ShmSegment): string => `key 0x${(s.key >>> 0).toString(16).padStart(8, '0')} id ${s.shmid}`;

/** Remove the abandoned segments of these data dirs (run after their servers have ended); returns what went. */
export async function removeAbandonedSegments(dataDirs: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const s of leaked(dataDirs)) {
    const r = await runCommand('ipcrm', ['-m', String(s.shmid)], { reject: false });
    if (r.exitCode === 0) removed.push(describeSegment(s));
  }
  return removed;
}

/** The same, synchronously, for the exit-time fallback. */
export function removeAbandonedSegmentsSync(dataDirs: readonly string[]): string[] {
  return leaked(dataDirs)
    .filter((s) => spawnSync('ipcrm', ['-m', String(s.shmid)], { stdio: 'ignore' }).status === 0)
    .map(describeSegment);
}
