/**
 * Building blocks of scripted fault timelines (pure): each returns the fault
 * windows of core/generator/nemesis-schedule.ts, times in ms since the
 * main phase started. A fault aimed at "the holder" hits whoever holds the
 * lock when the window opens and is skipped when nobody does, so scenarios
 * repeat their windows a few times rather than bet on one instant.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import type { ClientVictim } from '../../core/generator/fault-window.js';
import { clientFromServers, mergeGrudges, type Grudge } from '../../core/generator/grudge.js';

/** SIGSTOP a client (the holder by default) for `ms`, at each start. */
export function pauses(starts: readonly number[], ms: number, target: ClientVictim = { kind: 'holder' }): FaultWindow[] {
  return starts.map((at): FaultWindow => ({ at, until: at + ms, fault: 'client-pause', target }));
}

/**
 * Slow one client's link (to the resource or to the lock service) by
 * `delayMs` in each direction for `openMs` from each start. The delay proxy
 * fixes a chunk's delay when the chunk passes it, so a request sent while the
 * window is open arrives `delayMs` late even if the window closes meanwhile,
 * and its answer comes back at once when the window closed before the
 * request arrived.
 */
export function delays(starts: readonly number[], openMs: number, delayMs: number, link: 'resource' | 'lock', target: ClientVictim): FaultWindow[] {
  return starts.map((at): FaultWindow => ({ at, until: at + openMs, fault: 'delay', target, delayMs, link }));
}

/** A partition from `at` to `until`, its grudge given. */
export function partition(
  at: number,
  until: number,
  grudge: Grudge,
  grudgeKind: 'majorities-ring' | 'client-from-servers' = 'client-from-servers',
): FaultWindow {
  return { at, until, fault: 'partition', target: { kind: 'partition', grudgeKind, grudge } };
}

/**
 * Clients that each reach only some servers: `reach` maps a client host to
 * the servers it can talk to; it is cut off (both ways) from all the others.
 */
export function clientsReach(reach: Readonly<Record<string, readonly string[]>>, servers: readonly string[]): Grudge {
  return mergeGrudges(
    ...Object.entries(reach).map(([client, ok]) =>
      clientFromServers(
        client,
        servers.filter((s) => !ok.includes(s)),
      ),
    ),
  );
}

/** Shift a node's wall clock by `offsetMs` at each start, back to true time `ms` later. */
export function clockJumps(starts: readonly number[], ms: number, node: string, offsetMs: number): FaultWindow[] {
  return starts.map((at): FaultWindow => ({ at, until: at + ms, fault: 'clock', target: { kind: 'node', node }, offsetMs }));
}

/** SIGSTOP a server for `ms` at each start, the nodes taken in turn (Jepsen's process pauses of the database). */
export function serverPauses(starts: readonly number[], ms: number, nodes: readonly string[]): FaultWindow[] {
  return starts.map((at, i): FaultWindow => ({ at, until: at + ms, fault: 'server-pause', target: { kind: 'node', node: nodes[i % nodes.length]! } }));
}

/** kill -9 a node at each start, restart it `downMs` later (same command line, same data dir). */
export function kills(starts: readonly number[], downMs: number, node: string): FaultWindow[] {
  return starts.map((at): FaultWindow => ({ at, until: at + downMs, fault: 'kill', target: { kind: 'node', node } }));
}

/**
 * redis-sentinel: a partition around the master of the moment (the Sentinels
 * name it when the window opens): cut off from its replicas, or with a
 * minority of the clients (runtime/runner/sentinel-faults.ts).
 */
export function masterPartition(at: number, until: number, grudgeKind: 'master-from-replicas' | 'master-with-minority'): FaultWindow {
  return { at, until, fault: 'partition', target: { kind: 'partition', grudgeKind } };
}

/** kill -9 the leader (redis-sentinel: the master the Sentinels name) at `at`, restart it at `until`. */
export function leaderKill(at: number, until: number): FaultWindow {
  return { at, until, fault: 'kill', target: { kind: 'leader' } };
}

/** Windows in time order (the nemesis runner applies them one after another). */
export function timeline(...parts: readonly (FaultWindow | readonly FaultWindow[])[]): FaultWindow[] {
  return parts.flat().sort((a, b) => a.at - b.at);
}
