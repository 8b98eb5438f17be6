/**
 * How close a try came to a violation (pure), read from its history and its
 * results: the moments where the lock failed or the protection was needed.
 * The hunt's search (search.ts) biases its next tries toward the plans and
 * fault kinds that came closest (Mallory's feedback, Zest's near misses).
 *
 *   doubleHolds       two holders at once (the lock failed)
 *   refusals          the resource (or WAIT) said no: the protection at work
 *   pausedGrants      a grant while another holder was paused
 *   lateWrites        a write a client began after its lease had run out
 *   sessionLateWrites a write a holder began after the server ended the
 *                     session its lock lived in (a session lock has no
 *                     lease: PostgreSQL's advisory locks)
 *   lostGrants        acknowledged grants another client got over (failover)
 *   tokenRegressions  granted tokens that went backwards
 *   expiredGrants     grants handed out with no validity left
 *   sleptGrants       grants to a client that was paused, while its acquire
 *                     was in flight, for longer than its lease: whatever
 *                     it waited on should have expired (etcd's
 *                     concurrency.Mutex tells such a waiter it holds)
 *   validDoubleHolds  two holders at once, both within the validity their
 *                     grants promised: the lock breaking its own promise
 *                     (Redlock under a clock jump), not a holder acting
 *                     late (../scenarios/valid-double-holds.ts)
 *   foreignReleases   releases that removed another holder's lock: the next
 *                     waiter granted at once, within that holder's lease
 *                     (a release gated by the client's clock alone:
 *                     core/checkers/lock/foreign-releases.ts)
 */
import type { Evidence } from '../../core/checkers/lock/evidence.js';
import type { History, Op } from '../../core/history/op.js';
import { historyFacts } from '../scenarios/history-facts.js';
import { validDoubleHolds } from '../scenarios/valid-double-holds.js';
import { foreignReleases } from '../../core/checkers/lock/foreign-releases.js';
import { faultOfStart, isFaultStart, shadeOfStop } from '../../core/generator/faults/fault-of-op.js';

export interface NearMiss {
  violation: boolean;
  /** Fault windows that struck, and those of them that a lock event fired. */
  applied: number;
  triggered: number;
  doubleHolds: number;
  refusals: number;
  pausedGrants: number;
  lateWrites: number;
  sessionLateWrites: number;
  lostGrants: number;
  tokenRegressions: number;
  expiredGrants: number;
  sleptGrants: number;
  validDoubleHolds: number;
  foreignReleases: number;
}

/**
 * The signs a hunt can be asked to find (`--want`): a violation counts as the
 * find only when its try shows the sign, so a hunt for the lock's own
 * failure goes on past the failure every lease has (a write landed late on
 * an unfenced resource). Words as the flag takes them.
 */
export const WANTED_SIGNS = {
  'valid-double-hold': 'validDoubleHolds',
  'expired-grant': 'expiredGrants',
  'lost-grant': 'lostGrants',
  'token-regression': 'tokenRegressions',
  'slept-grant': 'sleptGrants',
  'foreign-release': 'foreignReleases',
} as const satisfies Record<string, keyof NearMiss>;
export type WantedSign = keyof typeof WANTED_SIGNS;

/** Whether a try's near miss shows the wanted sign (no sign wanted: every violation is the find). */
export function showsWanted(m: NearMiss | null, want: WantedSign | undefined): boolean {
  return want === undefined || (m !== null && m[WANTED_SIGNS[want]] > 0);
}

/** How much each sign counts toward a near miss: the lock failing counts most, the protection saying no least. */
const WEIGHTS: Record<NearMissSign, number> = {
  doubleHolds: 3,
  tokenRegressions: 3,
  lostGrants: 2,
  pausedGrants: 2,
  lateWrites: 2,
  sessionLateWrites: 2,
  // A grant with no validity left is the lock failing, as a double hold is.
  expiredGrants: 3,
  // A waiter told it holds after sleeping past its lease: the lock failing, unless the service refused it.
  sleptGrants: 3,
  // Both holders within their validity: the lock's own promise broken, the strongest sign there is.
  validDoubleHolds: 4,
  foreignReleases: 3,
  refusals: 1,
};

/**
 * `waitsUnderLease`: the target's waiters hold a lease or session while they
 * wait (etcd, ZooKeeper: their client renews it), so a waiter that slept past
 * it should not be told it holds; elsewhere (Redis: a waiter has no lease
 * until its SET wins) a grant after a long sleep is an ordinary grant.
 * `sessionLock`: the lock lives in a server session and has no lease
 * (PostgreSQL's advisory locks), so a write is late once that session ended,
 * not once a TTL passed that nothing applies.
 */
export function nearMissOf(
  history: History,
  results: { valid: boolean | 'unknown'; evidence?: Evidence | undefined },
  plannedWindows: number,
  ttlMs: number,
  waitsUnderLease = false,
  sessionLock = false,
): NearMiss {
  const facts = historyFacts(history, plannedWindows);
  return {
    violation: results.valid === false,
    applied: results.evidence?.faults.applied ?? facts.faults.applied,
    triggered: history.filter((op) => op.process === 'nemesis' && op.type === 'invoke' && isFaultStart(op.f, op.value) && typeof op['trigger'] === 'string')
      .length,
    doubleHolds: results.evidence?.protection.doubleHolds ?? 0,
    refusals: results.evidence?.protection.refusals ?? 0,
    pausedGrants: pausedGrants(history),
    lateWrites: sessionLock ? 0 : lateWrites(history, ttlMs),
    sessionLateWrites: writesAfterSessionEnd(history),
    lostGrants: facts.lostGrants,
    tokenRegressions: facts.tokenRegressions,
    expiredGrants: facts.expiredGrants,
    sleptGrants: waitsUnderLease ? sleptGrants(pauses(history), history, ttlMs) : 0,
    validDoubleHolds: validDoubleHolds(history),
    foreignReleases: foreignReleases(history).length,
  };
}

/** One number for "how close": each sign counted with its weight, squashed so one try with 40 refusals does not drown the rest. */
export type NearMissSign = Exclude<keyof NearMiss, 'violation' | 'applied' | 'triggered'>;

/** Every sign a near miss counts, in WEIGHTS' order. */
export const NEAR_MISS_SIGNS = Object.keys(WEIGHTS) as NearMissSign[];

export function nearMissScore(m: NearMiss): number {
  if (m.violation) return Infinity;
  let raw = 0;
  // A sign an older hunt.json did not record counts as none.
  for (const [k, w] of Object.entries(WEIGHTS)) raw += w * Math.log2(1 + (m[k as keyof typeof WEIGHTS] ?? 0));
  return raw;
}

/** The signs of a near miss in words, most telling first: `2 double holds, 1 grant while a holder was paused`. */
export function describeNearMiss(m: NearMiss): string {
  const parts: [number, string, string][] = [
    [m.validDoubleHolds, "double hold within both grants' validity", "double holds within both grants' validity"],
    [m.doubleHolds, 'double hold', 'double holds'],
    [m.tokenRegressions, 'token regression', 'token regressions'],
    [m.lostGrants, 'lost grant', 'lost grants'],
    [m.pausedGrants, 'grant while a holder was paused', 'grants while a holder was paused'],
    [m.lateWrites, 'write after the lease ended', 'writes after the lease ended'],
    [m.sessionLateWrites, 'write after its session ended', 'writes after their session ended'],
    [m.expiredGrants, 'grant with no validity left', 'grants with no validity left'],
    [m.sleptGrants, 'grant to a waiter paused past its lease', 'grants to waiters paused past their lease'],
    [m.foreignReleases ?? 0, "release that removed another holder's lock", "releases that removed another holder's lock"],
    [m.refusals, 'refusal', 'refusals'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return said.length === 0 ? 'nothing dangerous' : said.join(', ');
}

/** Dangerous moments tested (what the weight of a silence counts): the lock failing or the protection saying no. */
export function dangerousMoments(m: NearMiss): number {
  return m.doubleHolds + m.refusals;
}

interface Pause {
  process: unknown;
  from: number;
  to: number;
}

/** Every client pause: whom it held, from when to when (ns); one still on at the end lasts to the end. */
function pauses(history: History): Pause[] {
  const paused: Pause[] = [];
  const open = new Map<string, Op>();
  for (const op of history) {
    if (op.process !== 'nemesis' || op.type !== 'info' || op.error !== undefined || !isObject(op.value) || op.value['pid'] === undefined) continue;
    const key = String(op.value['pid']);
    if (faultOfStart(op.f, op.value) === 'client-pause') open.set(key, op);
    else if (shadeOfStop(op.f, op.value) === 'pause' && open.has(key)) {
      const p = open.get(key)!;
      paused.push({ process: victimOf(p), from: p.time, to: op.time });
      open.delete(key);
    }
  }
  const end = history.at(-1)?.time ?? 0;
  for (const p of open.values()) paused.push({ process: victimOf(p), from: p.time, to: end });
  return paused;
}

/** Grants (acquire ok) that completed while a client pause held another process. */
function pausedGrants(history: History): number {
  const paused = pauses(history);
  return history.filter((op) => op.f === 'acquire' && op.type === 'ok' && paused.some((p) => p.process !== op.process && op.time > p.from && op.time < p.to))
    .length;
}

/** Grants whose own client was paused, between sending the acquire and its answer, for longer than its lease. */
function sleptGrants(paused: readonly Pause[], history: History, ttlMs: number): number {
  const sent = new Map<unknown, number>();
  let slept = 0;
  for (const op of history) {
    if (op.f !== 'acquire') continue;
    if (op.type === 'invoke') sent.set(op.process, op.time);
    else if (op.type === 'ok' && sent.has(op.process)) {
      const from = sent.get(op.process)!;
      const asleep = paused.filter((p) => p.process === op.process).reduce((t, p) => t + Math.max(0, Math.min(p.to, op.time) - Math.max(p.from, from)), 0);
      if (asleep > ttlMs * 1e6) slept++;
    }
  }
  return slept;
}

/** The process a client pause hit: the event's (a triggered pause), else the holder the value names. */
function victimOf(pause: Op): unknown {
  return pause['by'] ?? (isObject(pause.value) ? pause.value['process'] : undefined);
}

/** Writes whose client began them (`started`) after the lease its last grant came with. */
function lateWrites(history: History, ttlMs: number): number {
  const grantedAt = new Map<unknown, { time: number; leaseMs: number }>();
  let late = 0;
  for (const op of history) {
    if (op.f === 'acquire' && op.type === 'ok')
      grantedAt.set(op.process, { time: op.time, leaseMs: typeof op['lease_ms'] === 'number' ? op['lease_ms'] : ttlMs });
    if (op.f === 'write' && op.type !== 'invoke' && typeof op['started'] === 'number') {
      const g = grantedAt.get(op.process);
      if (g && op['started'] - g.time > g.leaseMs * 1e6) late++;
    }
  }
  return late;
}

/** Writes a holder began after the server ended its session (an end-session that struck it), before its next grant. */
function writesAfterSessionEnd(history: History): number {
  const endedAt = new Map<unknown, number>();
  let late = 0;
  for (const op of history) {
    if (op.process === 'nemesis' && faultOfStart(op.f, op.value) === 'session-end' && op.type === 'info' && op.error == null && isObject(op.value))
      endedAt.set(op['by'] ?? op.value['process'], op.time);
    if (op.f === 'acquire' && op.type === 'ok') endedAt.delete(op.process);
    if (op.f === 'write' && op.type !== 'invoke' && typeof op['started'] === 'number') {
      const t = endedAt.get(op.process);
      if (t !== undefined && op['started'] > t) late++;
    }
  }
  return late;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
