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
import { FAULT_KINDS, type FaultKind, type FaultWindow, faultSpec } from './faults/registry.js';
import {
  GRUDGE_KINDS,
  SCRIPTED_GRUDGE_KINDS,
  TRIGGER_EVENTS,
  type ClientVictim,
  type NodeSet,
  type PartitionTarget,
  type ServerVictim,
  type Trigger,
} from './fault-window.js';
import type { ScriptFields } from './faults/fault-kind.js';
import { parseStrictJson } from '../history/strict-json.js';

const FLAG = '--script';
const HINT =
  'Give a JSON array of fault windows, e.g. [{"at":1000,"until":5000,"fault":"client-pause","target":{"kind":"holder"},"trigger":{"on":"holder-read","withinMs":3000}}] (docs/hunt.md).';

type Obj = Record<string, unknown>;

/** The script as the flag writes it. */
export function scriptText(windows: readonly FaultWindow[]): string {
  return JSON.stringify(windows);
}

export function parseScript(text: string): FaultWindow[] {
  let json: unknown;
  try {
    json = parseStrictJson(text);
  } catch (err) {
    throw new UsageError(`Expected \`${FLAG}\` to be JSON, got \`${text.slice(0, 60)}\` (${err instanceof Error ? err.message : String(err)})`, HINT);
  }
  if (!Array.isArray(json)) throw new UsageError(`Expected \`${FLAG}\` to be a JSON array of fault windows, got \`${text.slice(0, 60)}\``, HINT);
  return json.map((w, i) =>
    windowOf(w, (field, expected, got) => {
      throw new UsageError(`Expected \`${FLAG}\` window ${i + 1} \`${field}\` to be ${expected}, got \`${JSON.stringify(got)}\``, HINT);
    }),
  );
}

/** One fault window out of JSON, every field checked: `bad` names the first wrong one (and throws). */
export function windowOf(w: unknown, bad: Bad): FaultWindow {
  if (!isObj(w)) return bad('(window)', 'an object', w);
  const ms = (field: string, v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : bad(field, 'a number of ms >= 0', v));
  const at = ms('at', w['at']);
  const until = ms('until', w['until']);
  if (until < at) bad('until', `at least \`at\` (${at})`, until);
  const fault = oneOf(w['fault'], FAULT_KINDS) ?? bad('fault', `one of ${FAULT_KINDS.join(', ')}`, w['fault']);
  const trigger = w['trigger'] === undefined ? undefined : triggerOf(w['trigger'], bad, ms);
  const fields: ScriptFields = {
    bad,
    ms,
    clientVictim: (t) => clientVictim(t, bad),
    serverVictim: (t) => serverVictim(t, bad),
    serversVictim: (t) => serversVictim(t, bad),
    partitionTarget: (t) => partitionTarget(t, bad),
  };
  return faultSpec(fault).scripted(w, { at, until, ...(trigger ? { trigger } : {}) }, fields);
}

/** Names a window's bad field and throws. */
export type Bad = (field: string, expected: string, got: unknown) => never;

function triggerOf(t: unknown, bad: Bad, ms: (field: string, v: unknown) => number): Trigger {
  if (!isObj(t)) return bad('trigger', 'an object { on, withinMs }', t);
  const on = oneOf(t['on'], TRIGGER_EVENTS) ?? bad('trigger.on', `one of ${TRIGGER_EVENTS.join(', ')}`, t['on']);
  const withinMs = ms('trigger.withinMs', t['withinMs']);
  return on === 'lease-ending' ? { on, withinMs, leadMs: ms('trigger.leadMs', t['leadMs']) } : { on, withinMs };
}

function clientVictim(t: unknown, bad: Bad): ClientVictim {
  if (isObj(t) && (t['kind'] === 'holder' || t['kind'] === 'acquirer')) return { kind: t['kind'] };
  if (isObj(t) && t['kind'] === 'client' && Number.isInteger(t['worker']) && (t['worker'] as number) >= 0)
    return { kind: 'client', worker: t['worker'] as number };
  return bad('target', '{"kind":"holder"}, {"kind":"acquirer"} or {"kind":"client","worker":N}', t);
}

function serverVictim(t: unknown, bad: Bad): ServerVictim {
  if (isObj(t) && t['kind'] === 'leader') return { kind: 'leader' };
  if (isObj(t) && t['kind'] === 'node' && typeof t['node'] === 'string' && t['node'] !== '') return { kind: 'node', node: t['node'] };
  return bad('target', '{"kind":"leader"} or {"kind":"node","node":NAME}', t);
}

function serversVictim(t: unknown, bad: Bad): ServerVictim | NodeSet {
  if (!isObj(t) || t['kind'] !== 'nodes') return serverVictim(t, bad);
  const nodes = t['nodes'];
  const names =
    Array.isArray(nodes) && nodes.length > 0 && nodes.every((x) => typeof x === 'string' && x !== '')
      ? (nodes as string[])
      : bad('target.nodes', 'a non-empty array of server names', nodes);
  if (new Set(names).size !== names.length) bad('target.nodes', 'server names without repeats', nodes);
  return { kind: 'nodes', nodes: [...names] };
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
  const servers = t['servers'];
  if (servers !== undefined && !(Array.isArray(servers) && servers.length > 0 && servers.every((x) => typeof x === 'string' && x !== '')))
    bad('target.servers', 'a non-empty array of server names', servers);
  return {
    kind: 'partition',
    grudgeKind,
    ...(victim ? { victim } : {}),
    ...(g !== undefined ? { grudge: g as Record<string, string[]> } : {}),
    ...(servers !== undefined ? { servers: servers as string[] } : {}),
  };
}

function oneOf<T extends string>(v: unknown, words: readonly T[]): T | undefined {
  return typeof v === 'string' && (words as readonly string[]).includes(v) ? (v as T) : undefined;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
