/**
 * The phases of a lock run, as data (Jepsen's
 * `phases(time-limit(workload + nemesis), heal, recover, final reads)`):
 *
 *   main         [0, T)         clients run the workload, the nemesis its windows
 *   heal         from T         heal every fault; ends when the healing and the
 *                               sections still open are done
 *   recover      [T, T + R)     leases expire, the service recovers; the workers'
 *                               open sections finish inside it, and it lasts at
 *                               least until they have
 *   final-reads  from T + R     one client reads the resource's final state
 *                               (lock-counter and fenced-write; a mutex run has
 *                               no resource to read, so no such phase)
 *
 * Times are ms since the start on the run's clock, as planned: a heal or a
 * final read takes as long as it takes, so those phases have a start only.
 * The interpreter (runner/interpret-run.ts) runs exactly the phases listed,
 * in their order. Why recovery before the final read: a final read during a
 * partition or under a paused server would report the fault, not the data.
 */
import { expectNonNegative, expectPositive } from './expect-option.js';

export const PHASE_NAMES = ['main', 'heal', 'recover', 'final-reads'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

export type Phase =
  | { name: 'main'; startMs: number; endMs: number }
  | { name: 'heal'; startMs: number }
  | { name: 'recover'; startMs: number; endMs: number }
  | {
      name: 'final-reads';
      startMs: number;
      /**
       * The reader's client process starts when this phase begins (a process
       * start takes about a second here): it only connects meanwhile, and
       * reads once its own phase begins, as if it had started then.
       */
      connectDuring: PhaseName;
    };

export interface PhaseOptions {
  timeLimitMs: number;
  recoverMs: number;
  /** The run ends with a read of the resource (not the mutex workload). */
  finalReads: boolean;
}

export function planPhases(options: PhaseOptions): Phase[] {
  const t = expectPositive('timeLimitMs', options.timeLimitMs);
  const recover = expectNonNegative('recoverMs', options.recoverMs);
  return [
    { name: 'main', startMs: 0, endMs: t },
    { name: 'heal', startMs: t },
    { name: 'recover', startMs: t, endMs: t + recover },
    ...(options.finalReads ? [{ name: 'final-reads' as const, startMs: t + recover, connectDuring: 'recover' as const }] : []),
  ];
}
