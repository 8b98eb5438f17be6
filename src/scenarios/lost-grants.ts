/**
 * Grants a lock service lost (pure, from a lock history): the evidence S7
 * asks for before a failover row may say anything.
 *
 * A grant G1 (process p, an `ok` acquire) is *lost* when another process q
 * is granted the lock (G2, `ok`) although, by everything the clients did, G1's
 * key was still there: G2 was invoked after G1 completed, G2 completed before
 * p began its release (p had not let go), and before G1's lease could have
 * expired (G1's invocation + lease_ms, the earliest the key can expire since
 * it was set after the invocation). Then the service forgot an acknowledged
 * grant. Only lost grants with a server fault (a kill or a partition)
 * started between G1's completion and G2's completion are counted here: that
 * is the failover the scenario is about.
 *
 * Token regressions: a granted monotonic token not above one granted before
 * (INCR on a promoted replica that never saw the last increments).
 */
import type { History, Op } from '../../core/history/op.js';

export interface LostGrant {
  /** History indexes of the two grants' completions. */
  first: number;
  second: number;
  firstToken: number | string | null;
  secondToken: number | string | null;
}

const SERVER_FAULTS = new Set(['kill', 'start-partition']);

interface Grant {
  invoke: Op;
  ok: Op;
  /** Time the holder began its release (or its next acquire), else Infinity. */
  letGo: number;
}

function grantsOf(history: History): Grant[] {
  const pending = new Map<number, Op>();
  const open = new Map<number, Grant>();
  const grants: Grant[] = [];
  for (const op of history) {
    if (typeof op.process !== 'number') continue;
    if (op.type === 'invoke' && op.f === 'acquire') pending.set(op.process, op);
    if (op.type === 'invoke' && (op.f === 'release' || op.f === 'acquire')) {
      const g = open.get(op.process);
      if (g) g.letGo = op.time;
      open.delete(op.process);
    }
    if (op.type === 'ok' && op.f === 'acquire') {
      const invoke = pending.get(op.process);
      if (!invoke) continue;
      const g: Grant = { invoke, ok: op, letGo: Infinity };
      grants.push(g);
      open.set(op.process, g);
    }
  }
  return grants;
}

const tokenOf = (op: Op): number | string | null => (typeof op['token'] === 'number' || typeof op['token'] === 'string' ? op['token'] : null);

export function lostGrants(history: History): LostGrant[] {
  const grants = grantsOf(history);
  const faults = history
    .filter((op) => op.process === 'nemesis' && op.type === 'info' && SERVER_FAULTS.has(op.f) && (op.error === undefined || op.error === null))
    .map((op) => op.time);
  const lost: LostGrant[] = [];
  for (const g1 of grants) {
    const lease = typeof g1.ok['lease_ms'] === 'number' ? g1.ok['lease_ms'] : undefined;
    if (lease === undefined) continue;
    const keyEnd = Math.min(g1.letGo, g1.invoke.time + lease * 1e6);
    const g2 = grants.find(
      (g) => g.ok.process !== g1.ok.process && g.invoke.time > g1.ok.time && g.ok.time < keyEnd && faults.some((t) => t > g1.ok.time && t < g.ok.time),
    );
    if (g2) lost.push({ first: g1.ok.index, second: g2.ok.index, firstToken: tokenOf(g1.ok), secondToken: tokenOf(g2.ok) });
  }
  return lost;
}

/** Grants whose numeric token is not above the highest granted before it. */
export function tokenRegressions(history: History): number {
  let highest = -Infinity;
  let regressions = 0;
  for (const op of history) {
    if (op.type !== 'ok' || op.f !== 'acquire' || typeof op['token'] !== 'number') continue;
    if (op['token'] <= highest) regressions++;
    highest = Math.max(highest, op['token']);
  }
  return regressions;
}
