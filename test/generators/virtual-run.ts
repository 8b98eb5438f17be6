/**
 * A run replayed in virtual time: the client plans, the nemesis schedule and
 * the phases on a fake clock, with one ideal lock (granted first come, first
 * served; no leases). No I/O and no real time, so a test can assert the
 * exact instant each client acquires and releases and whom each fault hits.
 *
 * What it models, and why so little: a client thinks, asks for the lock,
 * holds it, releases it, and asks again, until the main phase ends (a
 * request already queued then is still granted, as an op in flight
 * completes). A fault resolves its target when it starts: `holder` is the
 * client holding the lock at that instant. A paused client's release waits
 * until the pause ends. Ties are broken by scheduling order, so the replay
 * is deterministic.
 */
import type { PlannedSection } from '../../workloads/generator/client-plan.js';
import type { FaultTarget, FaultWindow } from '../../workloads/generator/nemesis-schedule.js';
import { phaseAt, type Phase } from '../../workloads/generator/phases.js';

export interface VirtualEvent {
  atMs: number;
  what: 'phase' | 'acquire' | 'release' | 'fault-start' | 'fault-stop';
  /** The client, or the fault's resolved target, or the phase's name. */
  who: string;
}

interface Pending {
  atMs: number;
  seq: number;
  run: () => void;
}

export function virtualRun(plans: Iterator<PlannedSection, never>[], windows: readonly FaultWindow[], phases: readonly Phase[]): VirtualEvent[] {
  const log: VirtualEvent[] = [];
  const queue: Pending[] = [];
  let now = 0;
  let seq = 0;
  // Rounded to the microsecond, as the plans are, so that sums of times compare exactly.
  const at = (atMs: number, run: () => void): void => {
    queue.push({ atMs: Math.round(atMs * 1000) / 1000, seq: seq++, run });
  };
  let holder: number | undefined;
  const waiting: number[] = [];
  const pausedUntil = new Map<number, number>();
  const current = new Map<number, PlannedSection>();

  const request = (client: number): void => {
    if (!phaseAt(phases, now).workload) return;
    waiting.push(client);
    grant();
  };
  const grant = (): void => {
    const next = holder === undefined ? waiting.shift() : undefined;
    if (next === undefined) return;
    holder = next;
    log.push({ atMs: now, what: 'acquire', who: `client ${next}` });
    at(now + current.get(next)!.holdMs, () => release(next));
  };
  const release = (client: number): void => {
    const wake = pausedUntil.get(client);
    if (wake !== undefined && wake > now) return at(wake, () => release(client));
    holder = undefined;
    log.push({ atMs: now, what: 'release', who: `client ${client}` });
    think(client);
    grant();
  };
  const think = (client: number): void => {
    const section = plans[client]!.next().value;
    current.set(client, section);
    at(now + section.thinkMs, () => request(client));
  };

  for (const p of phases) at(p.startMs, () => log.push({ atMs: now, what: 'phase', who: p.name }));
  plans.forEach((_, client) => think(client));
  for (const w of windows) {
    at(w.at, () => {
      const who = describeTarget(w.target, holder);
      if (w.fault === 'client-pause' && holder !== undefined) pausedUntil.set(holder, w.until);
      log.push({ atMs: now, what: 'fault-start', who: `${w.fault} ${who}` });
      at(w.until, () => log.push({ atMs: now, what: 'fault-stop', who: `${w.fault} ${who}` }));
    });
  }
  while (queue.length > 0) {
    queue.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
    const e = queue.shift()!;
    now = e.atMs;
    e.run();
  }
  return log;
}

function describeTarget(t: FaultTarget, holder: number | undefined): string {
  switch (t.kind) {
    case 'holder':
      return holder === undefined ? 'nobody (no holder)' : `client ${holder}`;
    case 'leader':
      return 'the leader';
    case 'node':
      return t.node;
    case 'partition':
      return `${t.grudgeKind} ${t.grudge ? JSON.stringify(t.grudge) : describeTarget(t.victim ?? { kind: 'holder' }, holder)}`;
  }
}
