/**
 * `--script JSON`: a fault timeline given on the command line (what a hunt
 * try or a shrunk plan replays with), read back into FaultWindows with every
 * field checked. A bad window is a UsageError naming the window and field:
 * "Expected `--script` window 2 `trigger.on` to be one of acquire, …, got `x`".
 *
 * The text is JSON.stringify of the windows (scriptText), so parsing the
 * replay command gives the plan back.
 */
import { UsageError } from '../errors.js';
import { EVICT_POLICIES } from './eviction.js';
import { FAULT_KINDS, GRUDGE_KINDS, SCRIPTED_GRUDGE_KINDS, TRIGGER_EVENTS, type ClientVictim, type FaultWindow, type PartitionTarget, type ServerVictim, type Trigger } from './nemesis-schedule.js';

const FLAG = '--script';
const HINT = 'Give a JSON array of fault windows, e.g. [{"at":1000,"until":5000,"fault":"client-pause","target":{"kind":"holder"},"trigger":{"on":"holder-read","withinMs":3000}}] (docs/hunt.md).';

type Obj = Record<string, unknown>;

/** The script as the flag writes it. */
export function scriptText(windows: readonly FaultWindow[]): string {
  return JSON.stringify(windows);
}

export function parseScript(text: string): FaultWindow[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`Expected \`${FLAG}\` to be JSON, got \`${text.slice(0, 60)}\` (${err instanceof Error ? err.message : String(err)})`, HINT);
  }
  if (!Array.isArray(json)) throw new UsageError(`Expected \`${FLAG}\` to be a JSON array of fault windows, got \`${text.slice(0, 60)}\``, HINT);
  return json.map((w, i) => windowOf(w, i + 1));
}

function windowOf(w: unknown, n: number): FaultWindow {
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new UsageError(`Expected \`${FLAG}\` window ${n} \`${field}\` to be ${expected}, got \`${JSON.stringify(got)}\``, HINT);
  };
  if (!isObj(w)) return bad('(window)', 'an object', w);
  const ms = (field: string, v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : bad(field, 'a number of ms >= 0', v));
  const at = ms('at', w['at']);
  const until = ms('until', w['until']);
  if (until < at) bad('until', `at least \`at\` (${at})`, until);
  const fault = oneOf(w['fault'], FAULT_KINDS) ?? bad('fault', `one of ${FAULT_KINDS.join(', ')}`, w['fault']);
  const trigger = w['trigger'] === undefined ? undefined : triggerOf(w['trigger'], bad, ms);
  const span = { at, until, ...(trigger ? { trigger } : {}) };
  const t = w['target'];
  switch (fault) {
    case 'client-pause':
      return { ...span, fault, target: clientVictim(t, bad) };
    case 'delay': {
      const link = oneOf(w['link'], ['resource', 'lock'] as const) ?? bad('link', 'resource or lock', w['link']);
      return { ...span, fault, target: clientVictim(t, bad), link, delayMs: ms('delayMs', w['delayMs']) };
    }
    case 'server-pause':
    case 'kill':
      return { ...span, fault, target: serverVictim(t, bad) };
    case 'clock': {
      const offsetMs = typeof w['offsetMs'] === 'number' && Number.isFinite(w['offsetMs']) ? w['offsetMs'] : bad('offsetMs', 'a number of ms', w['offsetMs']);
      return { ...span, fault, target: serverVictim(t, bad), offsetMs };
    }
    case 'loss': {
      const p = w['lossPercent'];
      return { ...span, fault, target: serverVictim(t, bad), lossPercent: typeof p === 'number' && p > 0 && p <= 100 ? p : bad('lossPercent', 'a percentage in (0, 100]', p) };
    }
    case 'partition':
      return { ...span, fault, target: partitionTarget(t, bad) };
    case 'evict': {
      const policy = oneOf(w['policy'], EVICT_POLICIES) ?? bad('policy', EVICT_POLICIES.join(' or '), w['policy']);
      return { ...span, fault, target: serverVictim(t, bad), policy };
    }
  }
}

type Bad = (field: string, expected: string, got: unknown) => never;

function triggerOf(t: unknown, bad: Bad, ms: (field: string, v: unknown) => number): Trigger {
  if (!isObj(t)) return bad('trigger', 'an object { on, withinMs }', t);
  const on = oneOf(t['on'], TRIGGER_EVENTS) ?? bad('trigger.on', `one of ${TRIGGER_EVENTS.join(', ')}`, t['on']);
  const withinMs = ms('trigger.withinMs', t['withinMs']);
  return on === 'lease-ending' ? { on, withinMs, leadMs: ms('trigger.leadMs', t['leadMs']) } : { on, withinMs };
}

function clientVictim(t: unknown, bad: Bad): ClientVictim {
  if (isObj(t) && (t['kind'] === 'holder' || t['kind'] === 'acquirer')) return { kind: t['kind'] };
  if (isObj(t) && t['kind'] === 'client' && Number.isInteger(t['worker']) && (t['worker'] as number) >= 0) return { kind: 'client', worker: t['worker'] as number };
  return bad('target', '{"kind":"holder"}, {"kind":"acquirer"} or {"kind":"client","worker":N}', t);
}

function serverVictim(t: unknown, bad: Bad): ServerVictim {
  if (isObj(t) && t['kind'] === 'leader') return { kind: 'leader' };
  if (isObj(t) && t['kind'] === 'node' && typeof t['node'] === 'string' && t['node'] !== '') return { kind: 'node', node: t['node'] };
  return bad('target', '{"kind":"leader"} or {"kind":"node","node":NAME}', t);
}

function partitionTarget(t: unknown, bad: Bad): PartitionTarget {
  const kinds = [...GRUDGE_KINDS, ...SCRIPTED_GRUDGE_KINDS];
  if (!isObj(t) || t['kind'] !== 'partition') return bad('target', '{"kind":"partition","grudgeKind":…}', t);
  const grudgeKind = oneOf(t['grudgeKind'], kinds) ?? bad('target.grudgeKind', `one of ${kinds.join(', ')}`, t['grudgeKind']);
  const v = t['victim'];
  const victim = v === undefined ? undefined : isObj(v) && (v['kind'] === 'leader' || v['kind'] === 'node') ? serverVictim(v, bad) : clientVictim(v, bad);
  const g = t['grudge'];
  const isGrudge = isObj(g) && Object.values(g).every((drops) => Array.isArray(drops) && drops.every((d) => typeof d === 'string'));
  if (g !== undefined && !isGrudge) bad('target.grudge', 'an object of host → hosts it drops', g);
  return { kind: 'partition', grudgeKind, ...(victim ? { victim } : {}), ...(g !== undefined ? { grudge: g as Record<string, string[]> } : {}) };
}

function oneOf<T extends string>(v: unknown, words: readonly T[]): T | undefined {
  return typeof v === 'string' && (words as readonly string[]).includes(v) ? (v as T) : undefined;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
