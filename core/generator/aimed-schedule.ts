/**
 * An aimed schedule (pure): the seeded schedule's windows, with each fault
 * kind that is aimed waiting for a lock event before it strikes
 * (`client-pause@holder-read`: a holder paused between its read and its
 * write, Kleppmann's GC pause). A fault at a random moment hits a holder in
 * whatever stage it happens to be in, so a run may or may not show the
 * danger; a fault aimed at the event makes the danger happen in every window.
 *
 * Why whole windows only: an aimed fault keeps its planned length from the
 * moment its event comes, and the runner ends every fault when the main phase
 * ends. A window the schedule cut at the time limit, or one whose event could
 * push its end past the limit or into the next window, would be a shorter
 * fault than planned: a client pause no longer past the lease. So an aimed
 * window waits at most until its length still fits before the next window
 * (or the limit), and a window without that room is left out.
 */
import { UsageError } from '../errors.js';
import type { FaultKind, FaultWindow } from './faults/registry.js';
import { TRIGGER_EVENTS, type Trigger, type TriggerEvent } from './fault-window.js';

/** The event each aimed fault kind waits for. */
export type Aims = Partial<Record<FaultKind, TriggerEvent>>;

export interface AimScale {
  timeLimitMs: number;
  /** Each fault kind's planned length, as the seeded schedule planned it. */
  lengthMs: (fault: FaultKind) => number;
  /** The lock's lease: a `lease-ending` aim strikes within a fifth of it before the end. */
  leaseMs: number;
}

/** The windows, the aimed ones waiting for their event (whole windows only, see above). */
export function aimSchedule(windows: readonly FaultWindow[], aims: Aims, s: AimScale): FaultWindow[] {
  const whole = windows.filter((w) => aims[w.fault] === undefined || w.until - w.at >= s.lengthMs(w.fault));
  const out: FaultWindow[] = [];
  whole.forEach((w, i) => {
    const on = aims[w.fault];
    if (on === undefined) return void out.push(w);
    const room = (whole[i + 1]?.at ?? s.timeLimitMs) - w.until;
    if (room <= 0) return;
    const trigger: Trigger = on === 'lease-ending' ? { on, withinMs: room, leadMs: Math.max(1, Math.round(s.leaseMs / 5)) } : { on, withinMs: room };
    out.push({ ...w, trigger });
  });
  return out;
}

/** `client-pause@holder-read` → the fault and its event; a bare fault has none. The fault's name is checked by the caller. */
export function splitAim(part: string, flag: string): { fault: string; on?: TriggerEvent } {
  const at = part.indexOf('@');
  if (at < 0) return { fault: part };
  const on = part.slice(at + 1);
  if (!(TRIGGER_EVENTS as readonly string[]).includes(on)) {
    throw new UsageError(
      `Expected the lock event after \`@\` in \`${flag}\` to be one of ${TRIGGER_EVENTS.join(', ')}, got \`${part}\``,
      'docs/hunt.md#triggers says what each event is: client-pause@holder-read pauses a holder between its read and its write.',
    );
  }
  return { fault: part.slice(0, at), on: on as TriggerEvent };
}
