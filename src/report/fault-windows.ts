/**
 * Fault windows: the nemesis ops of a history (docs/lock-workloads.md) folded
 * into intervals a timeline can shade. Which op starts and which stops each
 * kind is the kind's own `ops` (core/generator/faults, read through
 * fault-of-op.ts): a fault starts with one op and stops with its counterpart
 * on the same target (`pause`/`resume`, `kill`/`restart`, ...); a clock
 * offset opens a window that the next offset of the same target (or an
 * offset of 0) closes; `heal` closes all; a kind with nothing to undo (a
 * session's end) is a moment, drawn from its invocation to its completion.
 *
 * Why the window runs from the starting op's *invocation* to the stopping
 * op's *completion*: the nemesis records when it asked and when it was told
 * it was done, and the fault may be in force anywhere in between, so the
 * window is the widest interval in which it may have acted. A fault never
 * stopped runs to the end of the history. Other nemesis ops are points.
 *
 * The nemesis records a fault it could not apply as a completion with an
 * `error` (no holder to pause, no leader): a failed start opens no window and
 * shows as a point; a failed stop closes nothing, since the fault may still
 * be in force.
 */
import type { History, Op, Value } from '../../core/history/op.js';
import type { FaultShade } from '../../core/generator/faults/fault-kind.js';
import { faultOfStart, isMoment, shadeOf, shadeOfStop } from '../../core/generator/faults/fault-of-op.js';

/** A window's shade on the timeline: its fault kind's (core/generator/faults), or `other` for a point. */
export type FaultKind = FaultShade | 'other';

export interface FaultWindow {
  kind: FaultKind;
  start: number;
  /** Null while still in force at the end of the history. */
  end: number | null;
  label: string;
  /** The node or client host hit, when the fault names one. */
  target: string | null;
  /** Client processes the nemesis says it hit (`value.process`). */
  processes: number[];
  startLine: number;
  /** Line of the stopping op's completion, -1 when never stopped. */
  endLine: number;
}

/** A nemesis op with its completion: one action of the fault injector. */
interface NemesisAction {
  f: string;
  value: Value;
  /** The completion's error: the nemesis could not do it. */
  error: Value | undefined;
  start: number;
  end: number;
  line: number;
  endLine: number;
}

export function faultWindows(history: History): FaultWindow[] {
  const windows: FaultWindow[] = [];
  const open = new Map<string, FaultWindow>();
  const close = (key: string, action: NemesisAction): void => {
    const w = open.get(key);
    if (w === undefined) return;
    w.end = action.end;
    w.endLine = action.endLine;
    open.delete(key);
  };
  const begin = (key: string, kind: FaultKind, action: NemesisAction): void => {
    close(key, { ...action, end: action.start, endLine: action.line });
    const w: FaultWindow = {
      kind,
      start: action.start,
      end: null,
      label: faultLabel(kind, action),
      target: targetOf(action.value),
      processes: processesOf(action.value),
      startLine: action.line,
      endLine: -1,
    };
    windows.push(w);
    open.set(key, w);
  };
  const point = (action: NemesisAction, label: string): void => {
    windows.push({
      kind: 'other',
      start: action.start,
      end: action.end,
      label,
      target: targetOf(action.value),
      processes: processesOf(action.value),
      startLine: action.line,
      endLine: action.endLine,
    });
  };
  for (const action of nemesisActions(history)) {
    if (action.error !== undefined) {
      point(action, `${action.f} failed`);
      continue;
    }
    const kind = faultOfStart(action.f, action.value);
    const stopped = shadeOfStop(action.f, action.value);
    if (kind !== undefined && isMoment(kind)) {
      const shade = shadeOf(kind);
      windows.push({
        kind: shade,
        start: action.start,
        end: action.end,
        label: faultLabel(shade, action),
        target: targetOf(action.value),
        processes: processesOf(action.value),
        startLine: action.line,
        endLine: action.endLine,
      });
    } else if (kind !== undefined) begin(faultKey(shadeOf(kind), action.value), shadeOf(kind), action);
    else if (stopped !== undefined) close(faultKey(stopped, action.value), action);
    else if (action.f === 'heal') {
      for (const key of [...open.keys()]) close(key, action);
    } else {
      point(action, action.f);
    }
  }
  return windows.sort((a, b) => a.start - b.start);
}

/**
 * Pair each nemesis invocation with a later completion of the same f: the one naming the same target when
 * several are in flight at once (a clock jump on three nodes, two aligned windows of one kind), else the
 * oldest; a lone info is its own action.
 */
function nemesisActions(history: History): NemesisAction[] {
  const actions: NemesisAction[] = [];
  const pending = new Map<string, NemesisAction[]>();
  history.forEach((op: Op, line) => {
    if (op.process !== 'nemesis') return;
    const inFlight = pending.get(op.f) ?? [];
    if (op.type === 'invoke') {
      const action: NemesisAction = { f: op.f, value: op.value, error: undefined, start: op.time, end: op.time, line, endLine: line };
      pending.set(op.f, [...inFlight, action]);
      actions.push(action);
      return;
    }
    const target = targetOf(op.value);
    const invoked = (target === null ? undefined : inFlight.find((a) => targetOf(a.value) === target)) ?? inFlight[0];
    if (invoked !== undefined) {
      invoked.end = op.time;
      invoked.endLine = line;
      // The completion says what was done; prefer its value when it has one.
      if (op.value !== null) invoked.value = op.value;
      invoked.error = op.error ?? undefined;
      pending.set(
        op.f,
        inFlight.filter((a) => a !== invoked),
      );
    } else {
      actions.push({ f: op.f, value: op.value, error: op.error ?? undefined, start: op.time, end: op.time, line, endLine: line });
    }
  });
  return actions;
}

function faultKey(kind: FaultKind, value: Value): string {
  return kind === 'partition' ? 'partition' : `${kind}:${targetOf(value) ?? JSON.stringify(value)}`;
}

function targetOf(value: Value): string | null {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const t = value.target ?? value.node;
    if (typeof t === 'string') return t;
    if (typeof value.from === 'string' && typeof value.to === 'string') return `${value.from}-${value.to}`;
  }
  return null;
}

function processesOf(value: Value): number[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const p = value.process;
  const list = Array.isArray(p) ? p : [p];
  return list.filter((x): x is number => typeof x === 'number' && Number.isInteger(x));
}

function clockMs(value: Value): number | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.ms === 'number') return value.ms;
  return null;
}

function faultLabel(kind: FaultKind, action: NemesisAction): string {
  const target = targetOf(action.value);
  if (kind === 'partition') return `partition ${partitionSides(action.value)}`.trim();
  if (kind === 'clock') return `clock ${target ?? ''} ${signed(clockMs(action.value))}`.replace(/\s+/g, ' ').trim();
  if (kind === 'session') return target === null ? 'session ended' : `session of ${target} ended`;
  return target === null ? kind : `${kind} ${target}`;
}

function signed(ms: number | null): string {
  return ms === null ? '' : `${ms > 0 ? '+' : ''}${ms} ms`;
}

/** A grudge (node -> nodes it drops) as its sides: nodes that still talk both ways end up together. */
export function partitionSides(grudge: Value): string {
  if (grudge === null || typeof grudge !== 'object' || Array.isArray(grudge)) return '';
  const nodes = new Set<string>();
  const drops = new Set<string>();
  for (const [node, dropped] of Object.entries(grudge)) {
    nodes.add(node);
    for (const d of Array.isArray(dropped) ? dropped : []) {
      if (typeof d !== 'string') continue;
      nodes.add(d);
      drops.add(`${node}>${d}`);
    }
  }
  const sides: string[][] = [];
  for (const node of [...nodes].sort()) {
    const side = sides.find((s) => s.every((m) => !drops.has(`${node}>${m}`) && !drops.has(`${m}>${node}`)));
    if (side) side.push(node);
    else sides.push([node]);
  }
  return sides.length > 1 ? sides.map((s) => s.join(' ')).join(' | ') : '';
}
