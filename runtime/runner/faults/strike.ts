/**
 * What every fault kind's module (this folder) is given to strike one window:
 * the runner's context, the event that fired it (a triggered window), and
 * the record helpers, so that every fault is recorded alike (an invoke, then
 * an info with what was done or the error; a window that found nothing to
 * strike recorded as skipped, since a skipped fault tested nothing). A
 * fault's module returns how to undo it, or undefined when it did not strike.
 */
import type { Value } from '../../../core/history/op.js';
import { type FaultKind, type FaultWindow, FAULT_SPECS } from '../../../core/generator/faults/registry.js';
import type { Fired } from '../await-trigger.js';
import type { NemesisRunnerContext } from '../nemesis-context.js';

/** What a started fault needs to be undone. */
export type Undo = () => Promise<void>;

export interface Strike {
  ctx: NemesisRunnerContext;
  /** The kind's start op and the op that undoes it, from its pure half's `ops` (core/generator/faults): what is recorded is what is read back. */
  start: string;
  stop: string;
  fired: Fired | undefined;
  /** The invoke of f, stamped with the trigger (attempt's first half, for a kind whose info carries what the act found). */
  begin(f: string, value: Value): void;
  /** An info with what was done (or the error), stamped with the trigger; `found`: what the act found, beside the value the invoke had (so the two pair). */
  done(f: string, value: Value, error?: string, found?: Record<string, Value>): void;
  /** The window found nothing to strike: recorded so, undefined returned. */
  skipped(f: string, why: string): undefined;
  /** invoke f, act, then info (the error too, logged); whether it worked. */
  attempt(f: string, value: Value, act: () => Promise<void>): Promise<boolean>;
}

export interface FaultModule<K extends FaultKind> {
  strike(w: FaultWindow & { fault: K }, s: Strike): Promise<Undo | undefined>;
}

export const NO_NODE = 'no server node to aim at';

/** The record helpers of one window, stamped with what fired it: the event, whose it was, how long after `at`. */
export function strikeOf(ctx: NemesisRunnerContext, w: FaultWindow, fired: Fired | undefined): Strike {
  const stamp = fired === undefined ? {} : { trigger: fired.on, by: fired.process, waited_ms: Math.round(fired.waitedMs) };
  const begin = (f: string, value: Value): void => void ctx.recorder.record('nemesis', 'invoke', f, value, stamp);
  const done = (f: string, value: Value, error?: string, found: Record<string, Value> = {}): void =>
    void ctx.recorder.record('nemesis', 'info', f, value, error ? { ...stamp, ...found, error } : { ...stamp, ...found });
  const ops = FAULT_SPECS[w.fault].ops;
  return {
    ctx,
    // A clock is undone by its own op (an offset of 0); a moment has nothing to undo.
    start: ops.start,
    stop: ops.stops[0] ?? ops.start,
    fired,
    begin,
    done,
    skipped: (f, why) => {
      done(f, { target: w.target.kind }, why);
      return undefined;
    },
    attempt: async (f, value, act) => {
      begin(f, value);
      try {
        await act();
        done(f, value);
        return true;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        done(f, value, message);
        ctx.log(`nemesis: ${f} failed: ${message}`);
        return false;
      }
    },
  };
}
