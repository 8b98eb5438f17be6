/**
 * Runs the nemesis schedule (../generator/nemesis-schedule.ts) against a live
 * cluster: at each window's start it resolves the symbolic target (the lock
 * holder, the leader) and applies the fault; at the window's end it undoes
 * it. Every fault is recorded as nemesis ops (invoke, then info saying what
 * was done), so checkers and the report can see the windows.
 *
 * A fault that cannot be applied (the holder died meanwhile, no leader during
 * an election) is recorded as an info with the error and the run goes on: a
 * missed fault weakens a run, it does not invalidate it.
 *
 * A window with a trigger waits from its `at` for its lock event (bounded,
 * ./await-trigger.ts), then fires for its planned length; a client fault hits
 * the client of the event. Its records carry the fields `trigger` (the
 * event), `by` (the event's process) and `waited_ms`; one whose event never
 * came is recorded as skipped, saying so.
 */
import { FAULT_SPECS, type FaultWindow } from '../../core/generator/faults/registry.js';
import { FAULT_MODULES } from './faults/registry.js';
import { awaitTrigger, type Fired } from './await-trigger.js';
import type { NemesisRunnerContext } from './nemesis-context.js';
import { strikeOf, type FaultModule, type Undo } from './faults/strike.js';

export type { NemesisRunnerContext };

/**
 * Each window keeps its own time: the seeded schedule's windows never overlap,
 * but a scenario's script may (a partition held while a node's clock jumps or
 * the node restarts), and a window must not wait for an earlier one to end.
 */
export async function runNemesis(ctx: NemesisRunnerContext, windows: readonly FaultWindow[]): Promise<void> {
  await Promise.all(
    windows.map(async (w) => {
      await ctx.sleepUntilNs(ctx.startNs + w.at * 1e6);
      if (ctx.stopped()) return;
      let endNs = ctx.startNs + w.until * 1e6;
      let fired: Fired | undefined;
      if (w.trigger) {
        const got = await awaitTrigger(ctx.holders, w.trigger, w.target, (ctx.mainEndNs - ctx.recorder.now()) / 1e6, ctx.renewal);
        if (!got.fired) return void skipTriggered(ctx, w, got.why);
        if (ctx.stopped()) return void skipTriggered(ctx, w, `trigger ${w.trigger.on}: the main phase ended first`);
        fired = got.by;
        endNs = ctx.recorder.now() + (w.until - w.at) * 1e6;
      }
      const undo = await apply(ctx, w, fired);
      await ctx.sleepUntilNs(endNs);
      if (undo) await undo();
    }),
  );
}

/** A triggered window whose event never came: a skip (no invoke), with the fault kind so a server pause is not taken for a client's. */
function skipTriggered(ctx: NemesisRunnerContext, w: FaultWindow, why: string): void {
  ctx.recorder.record('nemesis', 'info', FAULT_SPECS[w.fault].ops.start, { fault: w.fault, target: w.target.kind }, { trigger: w.trigger!.on, error: why });
}

/** One window struck by its fault kind's module (./faults/). */
function apply(ctx: NemesisRunnerContext, w: FaultWindow, fired?: Fired): Promise<Undo | undefined> {
  const module = FAULT_MODULES[w.fault] as FaultModule<typeof w.fault>;
  return module.strike(w as never, strikeOf(ctx, w, fired));
}
