/**
 * One client worker: follows its seeded plan (think, then a critical section)
 * until the main phase ends, then finishes the section it is in. After an
 * indeterminate op it retires its process: the client process is killed (its
 * lock, if any, expires by itself) and the worker goes on as a fresh process
 * id (`process + clients`) with a fresh client, as Jepsen does.
 */
import type { PlannedSection } from '../../core/generator/client-plan.js';
import type { LockSession } from './ports.js';
import { runCriticalSection, type SectionContext } from './critical-section.js';
import type { StopSignal } from './stop-signal.js';

export interface WorkerContext {
  section: SectionContext;
  stop: StopSignal;
  clients: number;
  /** Worker `i`'s seeded sections (run-plan.ts). */
  plan: (worker: number) => Iterator<PlannedSection, never>;
  /** Start a fresh client process for worker `i` and wait until it is ready. */
  spawnClient: (worker: number) => Promise<LockSession>;
  /** Kill a client process (kill -9) and forget it. */
  retireClient: (session: LockSession) => Promise<void>;
  log: (line: string) => void;
}

export async function runWorker(ctx: WorkerContext, worker: number, first: LockSession): Promise<void> {
  const plan = ctx.plan(worker);
  let session = first;
  let process = worker;
  while (!ctx.stop.stopped) {
    const s = plan.next().value;
    await ctx.stop.sleep(s.thinkMs);
    if (ctx.stop.stopped) break;
    const outcome = await runCriticalSection(ctx.section, session, { worker, process, holdMs: s.holdMs, value: s.value });
    if (outcome === 'retire') {
      await ctx.retireClient(session);
      process += ctx.clients;
      try {
        session = await ctx.spawnClient(worker);
      } catch (err) {
        ctx.log(`worker ${worker}: could not start a fresh client: ${err instanceof Error ? err.message : String(err)}; the worker stops`);
        return;
      }
    }
  }
}
