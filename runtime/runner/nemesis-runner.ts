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
import type { Value } from '../../core/history/op.js';
import { clientFromResource, clientFromServers, isolateOne, type Grudge } from '../../core/generator/grudge.js';
import type { ClientVictim, FaultWindow, PartitionTarget, ServerVictim } from '../../core/generator/nemesis-schedule.js';
import { awaitTrigger, type Fired } from './await-trigger.js';
import type { Holders } from './holders.js';
import type { DelayLink, LockSession, NemesisPort } from './ports.js';
import type { Recorder } from './recorder.js';
import { isSentinelGrudgeKind, sentinelGrudgeOf } from './sentinel-faults.js';

export interface NemesisRunnerContext {
  nemesis: NemesisPort;
  recorder: Recorder;
  holders: Holders;
  /** The lock service's nodes. */
  lockNodes: readonly string[];
  resourceNode: string;
  /** A worker's current client (scripted faults aimed at one worker). */
  sessionOf: (worker: number) => LockSession | undefined;
  /** How long a fault aimed at the holder or an acquirer waits for one (bounded: the window goes on meanwhile). */
  victimWaitMs: number;
  /** Time of the main phase's start, in recorder ns. */
  startNs: number;
  /** The main phase's end, in recorder ns: no trigger waits past it. */
  mainEndNs: number;
  sleepUntilNs: (ns: number) => Promise<void>;
  stopped: () => boolean;
  log: (line: string) => void;
}

const NO_NODE = 'no server node to aim at';

/** What a started fault needs to be undone. */
type Undo = () => Promise<void>;

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
        const got = await awaitTrigger(ctx.holders, w.trigger, w.target, (ctx.mainEndNs - ctx.recorder.now()) / 1e6);
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

/** The start op each fault kind records, as the evidence reads them (checkers/lock/evidence.ts). */
const START_OP: Record<FaultWindow['fault'], string> = {
  'client-pause': 'pause',
  'server-pause': 'pause',
  kill: 'kill',
  clock: 'clock-offset',
  loss: 'start-loss',
  partition: 'start-partition',
  delay: 'start-delay',
  evict: 'start-evict',
};

/** A triggered window whose event never came: a skip (no invoke), with the fault kind so a server pause is not taken for a client's. */
function skipTriggered(ctx: NemesisRunnerContext, w: FaultWindow, why: string): void {
  ctx.recorder.record('nemesis', 'info', START_OP[w.fault], { fault: w.fault, target: w.target.kind }, { trigger: w.trigger!.on, error: why });
}

async function apply(ctx: NemesisRunnerContext, w: FaultWindow, fired?: Fired): Promise<Undo | undefined> {
  const n = ctx.nemesis;
  // What fired a triggered window goes into each of its records, beside the value (a grudge stays a grudge):
  // the event, whose it was, and how long after `at` it came.
  const stamp = fired === undefined ? {} : { trigger: fired.on, by: fired.process, waited_ms: Math.round(fired.waitedMs) };
  const begin = (f: string, value: Value) => ctx.recorder.record('nemesis', 'invoke', f, value, stamp);
  const done = (f: string, value: Value, error?: string) => ctx.recorder.record('nemesis', 'info', f, value, error ? { ...stamp, error } : stamp);
  // A window that found nothing to strike is recorded so: a skipped fault tested nothing, and the verdict must know.
  const skipped = (f: string, why: string): undefined => {
    done(f, { target: w.target.kind }, why);
    return undefined;
  };
  const attempt = async (f: string, value: Value, act: () => Promise<void>): Promise<boolean> => {
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
  };

  switch (w.fault) {
    case 'client-pause': {
      const v = await victimClient(ctx, w.target, fired);
      if (!v) {
        done('pause', { target: w.target.kind }, `no client to pause: nobody held the lock or was acquiring within ${ctx.victimWaitMs} ms`);
        return undefined;
      }
      const value = { target: v.session.host, pid: v.session.pid, ...v.about };
      if (!(await attempt('pause', value, () => v.session.pause()))) return undefined;
      return async () => void (await attempt('resume', value, () => v.session.resume()));
    }
    case 'server-pause': {
      const node = await victimNode(ctx, w.target);
      if (!node) return skipped('pause', NO_NODE);
      if (!(await attempt('pause', { target: node }, () => n.pause(node)))) return undefined;
      return async () => void (await attempt('resume', { target: node }, () => n.resume(node)));
    }
    case 'kill': {
      const node = await victimNode(ctx, w.target);
      if (!node) return skipped('kill', NO_NODE);
      if (!(await attempt('kill', node, () => n.kill(node)))) return undefined;
      return async () => void (await attempt('restart', node, () => n.restart(node)));
    }
    case 'clock': {
      const node = await victimNode(ctx, w.target);
      if (!node) return skipped('clock-offset', NO_NODE);
      const value = { target: node, ms: w.offsetMs };
      if (!(await attempt('clock-offset', value, () => n.clockOffset(node, w.offsetMs)))) return undefined;
      return async () => void (await attempt('clock-offset', { target: node, ms: 0 }, () => n.clockOffset(node, 0)));
    }
    case 'loss': {
      const node = await victimNode(ctx, w.target);
      if (!node) return skipped('start-loss', NO_NODE);
      const others = n.clientHosts().concat(ctx.lockNodes.filter((x) => x !== node));
      const value = { target: node, percent: w.lossPercent };
      if (!(await attempt('start-loss', value, () => n.loss(node, others, w.lossPercent)))) return undefined;
      return async () => void (await attempt('stop-loss', value, () => n.loss(node, others, 0)));
    }
    case 'partition': {
      const grudge = await grudgeOf(ctx, w.target, fired);
      if (!grudge) return skipped('start-partition', 'no partition to make: no node or client host to cut off');
      if (!(await attempt('start-partition', grudge as Value, () => n.partition(grudge)))) return undefined;
      return async () => void (await attempt('stop-partition', null, () => n.heal()));
    }
    case 'evict':
      return evict(ctx, w, await victimNode(ctx, w.target), done);
    case 'delay': {
      const v = await victimClient(ctx, w.target, fired);
      const host = v?.session.host;
      const proxies = host ? n.delayLinks(host) : undefined;
      const link = w.link;
      const chosen = [...(proxies ?? new Map<string, DelayLink>())].filter(([node]) => (link === 'resource' ? node === ctx.resourceNode : node !== ctx.resourceNode));
      const value = { target: host ?? null, link, ms: w.delayMs };
      if (chosen.length === 0) {
        const why = !v ? `no client to delay: nobody held the lock or was acquiring within ${ctx.victimWaitMs} ms` : 'no delay proxy on that link (the run must be started with proxies)';
        done('start-delay', value, why);
        return undefined;
      }
      const set = (ms: number) => async () => void (await Promise.all(chosen.map(([, p]) => p.setDelay(ms))));
      if (!(await attempt('start-delay', value, set(w.delayMs)))) return undefined;
      return async () => void (await attempt('stop-delay', value, set(0)));
    }
  }
}

/**
 * Memory pressure on a cache node: `start-evict` once the node evicts (the
 * fault is then in force), each lock-service key it evicts as an `evicted` op
 * at that moment, and `stop-evict` carrying the window's counts (evicted
 * keys, the lock keys among them, fillers written): the run's fault record.
 */
async function evict(ctx: NemesisRunnerContext, w: Extract<FaultWindow, { fault: 'evict' }>, node: string | undefined, done: (f: string, value: Value, error?: string) => void): Promise<Undo | undefined> {
  if (!node) {
    done('start-evict', { target: w.target.kind }, NO_NODE);
    return undefined;
  }
  const value = { target: node, policy: w.policy };
  ctx.recorder.record('nemesis', 'invoke', 'start-evict', value);
  const onKey = (key: string): void => void ctx.recorder.record('nemesis', 'info', 'evicted', { target: node, key });
  try {
    const started = await ctx.nemesis.evict(node, w.policy, onKey);
    ctx.recorder.record('nemesis', 'info', 'start-evict', value, { maxmemory: started.maxmemoryBytes, used_memory: started.usedMemoryBytes });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    done('start-evict', value, message);
    ctx.log(`nemesis: start-evict failed: ${message}`);
    return undefined;
  }
  return async () => {
    ctx.recorder.record('nemesis', 'invoke', 'stop-evict', value);
    try {
      const s = await ctx.nemesis.stopEvict(node);
      ctx.recorder.record('nemesis', 'info', 'stop-evict', { ...value, evicted_keys: s.evictedKeys, lock_keys_evicted: s.lockKeysEvicted, fillers: s.fillersWritten });
    } catch (err) {
      done('stop-evict', value, err instanceof Error ? err.message : String(err));
    }
  };
}

/**
 * The client a client fault hits, with what to record about it. A fault aimed
 * at the holder or an acquirer waits (bounded) for one rather than missing:
 * a skipped fault is a window that tested nothing.
 */
async function victimClient(ctx: NemesisRunnerContext, v: ClientVictim, fired?: Fired): Promise<{ session: LockSession; about: Record<string, Value> } | undefined> {
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

async function victimNode(ctx: NemesisRunnerContext, v: ServerVictim): Promise<string | undefined> {
  if (v.kind === 'node') return v.node;
  const leader = await ctx.nemesis.leader().catch(() => undefined);
  // No leader (Redis, or mid-election): the first lock node.
  return leader ?? ctx.lockNodes[0];
}

async function grudgeOf(ctx: NemesisRunnerContext, t: PartitionTarget, fired?: Fired): Promise<Grudge | undefined> {
  if (t.grudge) return t.grudge;
  if (isSentinelGrudgeKind(t.grudgeKind)) return sentinelGrudgeOf(t.grudgeKind, await ctx.nemesis.leader().catch(() => undefined), ctx.lockNodes, ctx.nemesis.clientHosts());
  if (t.grudgeKind === 'isolate-one') {
    const victim = t.victim ?? { kind: 'leader' };
    const node = victim.kind === 'node' || victim.kind === 'leader' ? await victimNode(ctx, victim) : undefined;
    return node ? isolateOne(ctx.lockNodes, node) : undefined;
  }
  const host = fired?.session.host ?? ctx.holders.victim()?.session.host ?? ctx.nemesis.clientHosts()[0];
  if (!host) return undefined;
  return t.grudgeKind === 'client-from-resource' ? clientFromResource(host, ctx.resourceNode) : clientFromServers(host, ctx.lockNodes);
}
