/**
 * The phases of a lock run, as data (Jepsen's
 * `phases(time-limit(workload + nemesis), heal, recover, final reads)`):
 *
 *   main         [0, T)          clients run the workload, the nemesis its schedule
 *   heal         [T, T + H)      heal every fault (H defaults to 0: an instant)
 *   recover      [T + H, + R)    nobody acts: leases expire, the service recovers
 *   final-reads  [T + H + R, ∞)  one client reads the resource's final state
 *
 * Times are ms since the start, in the run's clock or a test's virtual one.
 * Why recovery before the final read: a final read during a partition or
 * under a paused server would report the fault, not the data.
 */
import { expectNonNegative, expectPositive } from './expect-option.js';

export type PhaseName = 'main' | 'heal' | 'recover' | 'final-reads';

export interface Phase {
  name: PhaseName;
  startMs: number;
  /** Exclusive; Infinity for the final reads, which end when they are done. */
  endMs: number;
  /** Clients run the workload (acquire, access, release). */
  workload: boolean;
  /** The nemesis schedule runs. */
  nemesis: boolean;
  /** What the runner does on entering the phase. */
  action?: 'heal-all' | 'final-reads';
}

export interface PhaseOptions {
  timeLimitMs: number;
  recoverMs: number;
  /** The nominal time heal-all takes; default 0. */
  healMs?: number;
}

export function planPhases(options: PhaseOptions): Phase[] {
  const t = expectPositive('timeLimitMs', options.timeLimitMs);
  const heal = expectNonNegative('healMs', options.healMs ?? 0);
  const recover = expectNonNegative('recoverMs', options.recoverMs);
  return [
    { name: 'main', startMs: 0, endMs: t, workload: true, nemesis: true },
    { name: 'heal', startMs: t, endMs: t + heal, workload: false, nemesis: false, action: 'heal-all' },
    { name: 'recover', startMs: t + heal, endMs: t + heal + recover, workload: false, nemesis: false },
    { name: 'final-reads', startMs: t + heal + recover, endMs: Infinity, workload: false, nemesis: false, action: 'final-reads' },
  ];
}

/**
 * The phase a run is in at `tMs`. Phases are [start, end); a phase of zero
 * length owns its one instant, so that a heal that takes no time still
 * happens: at exactly T the run is healing, not yet recovering.
 */
export function phaseAt(phases: readonly Phase[], tMs: number): Phase {
  if (!(tMs >= 0)) throw new RangeError(`Expected a time of at least 0 ms, got \`${tMs}\``);
  const found = phases.find((p) => (p.startMs === p.endMs ? tMs === p.startMs : p.startMs <= tMs && tMs < p.endMs));
  if (found === undefined) throw new RangeError(`No phase covers ${tMs} ms`);
  return found;
}
