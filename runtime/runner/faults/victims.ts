/**
 * Whom a fault strikes: the client of a client fault, the node of a server
 * fault, the grudge of a partition, resolved from the window's symbolic
 * target (the holder, an acquirer, the leader) at the moment it strikes.
 */
import { clientFromResource, clientFromServers, isolateOne, type Grudge } from '../../../core/generator/grudge.js';
import type { ClientVictim, PartitionTarget, ServerVictim } from '../../../core/generator/fault-window.js';
import type { Value } from '../../../core/history/op.js';
import type { Fired } from '../await-trigger.js';
import type { NemesisRunnerContext } from '../nemesis-context.js';
import type { LockSession } from '../ports.js';
import { isSentinelGrudgeKind, sentinelGrudgeOf } from '../sentinel-faults.js';

/**
 * The client a client fault hits, with what to record about it. A fault aimed
 * at the holder or an acquirer waits (bounded) for one rather than missing:
 * a skipped fault is a window that tested nothing.
 */
export async function victimClient(
  ctx: NemesisRunnerContext,
  v: ClientVictim,
  fired?: Fired,
): Promise<{ session: LockSession; about: Record<string, Value> } | undefined> {
  // A triggered window hits the client of its event (a worker's window waited for that worker's event).
  if (fired) return fired.session.alive ? { session: fired.session, about: { process: fired.process, token: fired.token ?? null } } : undefined;
  if (v.kind === 'client') {
    const session = ctx.sessionOf(v.worker);
    return session?.alive ? { session, about: { worker: v.worker } } : undefined;
  }
  if (v.kind === 'acquirer') {
    const session = await ctx.holders.acquirer(ctx.victimWaitMs);
    return session ? { session, about: { while: 'acquiring' } } : undefined;
  }
  const h = await ctx.holders.nextVictim(ctx.victimWaitMs);
  return h ? { session: h.session, about: { process: h.process, token: h.token ?? null } } : undefined;
}

export async function victimNode(ctx: NemesisRunnerContext, v: ServerVictim): Promise<string | undefined> {
  if (v.kind === 'node') return v.node;
  const leader = await ctx.nemesis.leader().catch(() => undefined);
  // No leader (Redis, or mid-election): the first lock node.
  return leader ?? ctx.lockNodes[0];
}

export async function grudgeOf(ctx: NemesisRunnerContext, t: PartitionTarget, fired?: Fired): Promise<Grudge | undefined> {
  if (t.grudge) return t.grudge;
  if (isSentinelGrudgeKind(t.grudgeKind))
    return sentinelGrudgeOf(t.grudgeKind, await ctx.nemesis.leader().catch(() => undefined), ctx.lockNodes, ctx.nemesis.clientHosts());
  if (t.grudgeKind === 'isolate-one') {
    const victim = t.victim ?? { kind: 'leader' };
    const node = victim.kind === 'node' || victim.kind === 'leader' ? await victimNode(ctx, victim) : undefined;
    return node ? isolateOne(ctx.lockNodes, node) : undefined;
  }
  const host = fired?.session.host ?? ctx.holders.victim()?.session.host ?? ctx.nemesis.clientHosts()[0];
  if (!host) return undefined;
  return t.grudgeKind === 'client-from-resource' ? clientFromResource(host, ctx.resourceNode) : clientFromServers(host, t.servers ?? ctx.lockNodes);
}
