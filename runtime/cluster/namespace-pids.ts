/**
 * Which processes live in the project's network namespaces. Each name in
 * /run/netns is a bind mount of a namespace; a process is inside it when its
 * /proc/PID/ns/net link names the same inode. Any such process was started by
 * the project (nothing else enters these namespaces), so it may be ended even
 * if no state file recorded it (the harness died between spawn and record).
 */
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

export function namespaceInode(name: string): number | undefined {
  try {
    return statSync(`/run/netns/${name}`).ino;
  } catch {
    return undefined;
  }
}

/** pid -> namespace name, for every process inside one of `namespaces`. */
export function pidsInNamespaces(namespaces: readonly string[]): Map<number, string> {
  const byInode = new Map<string, string>();
  for (const ns of namespaces) {
    const ino = namespaceInode(ns);
    if (ino !== undefined) byInode.set(`net:[${ino}]`, ns);
  }
  const found = new Map<number, string>();
  if (byInode.size === 0) return found;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const ns = byInode.get(readlinkSync(`/proc/${entry}/ns/net`));
      if (ns !== undefined) found.set(Number(entry), ns);
    } catch {
      // The process ended while we looked, or is a kernel thread without a namespace link.
    }
  }
  return found;
}

/**
 * Live processes (not this one) whose command line names one of `needles`:
 * the run's own data dirs, which only the project's processes name, so they
 * too may be ended (one still outside a namespace, between its fork and its
 * setns).
 */
export function pidsNaming(needles: readonly string[]): number[] {
  if (needles.length === 0) return [];
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return [];
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      return needles.some((n) => cmdline.includes(n)) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}
