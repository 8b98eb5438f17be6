/**
 * The one lookup from a history's nemesis ops to fault kinds
 * (core/generator/faults/fault-of-op.ts), derived from each kind's `ops`:
 * every kind's start op reads back as that kind, its stop ops close its
 * window on the report's timeline, and the evidence counts it. The cases are
 * made from the specs themselves, so a new kind is covered without a row
 * here. (That the live halves record these very ops is shown by the
 * simulation, which counts the kinds struck through this lookup.)
 */
import { describe, expect, it } from 'vitest';
import { FAULT_SPECS, FAULT_KINDS } from '../../core/generator/faults/registry.js';
import { faultOfStart, isFaultStart, isMoment, shadeOf, shadeOfStop } from '../../core/generator/faults/fault-of-op.js';
import { evidenceOf } from '../../core/checkers/lock/evidence.js';
import { faultWindows } from '../../src/report/fault-windows.js';
import type { History, Op, Value } from '../../core/history/op.js';

const nemesis = (type: Op['type'], f: string, value: Value, time: number, extra: Partial<Op> = {}): Op =>
  ({ process: 'nemesis', type, f, value, time, ...extra }) as Op;

describe('fault ops, derived from the kinds', () => {
  it('reads every kind back from its start op, a shared op by the value it carries', () => {
    for (const kind of FAULT_KINDS) {
      const { start } = FAULT_SPECS[kind].ops;
      expect(faultOfStart(start, { fault: kind, target: 'n1' }), kind).toBe(kind);
      expect(isFaultStart(start, { target: 'n1', ms: 500 }), kind).toBe(true);
    }
    // Both pauses are `pause`: a client's names the pid it stopped, and only client faults are skipped for want of a victim.
    expect(faultOfStart('pause', { target: 'c1', pid: 42 })).toBe('client-pause');
    expect(faultOfStart('pause', { target: 'n1' })).toBe('server-pause');
    expect(faultOfStart('pause', { target: 'holder' }, true)).toBe('client-pause');
    expect(faultOfStart('resume', { target: 'n1' })).toBeUndefined();
    expect(faultOfStart('heal', null)).toBeUndefined();
  });

  it('keeps starts and stops apart: no stop op strikes, an undoing start (an offset of 0) is a stop', () => {
    for (const kind of FAULT_KINDS) {
      const { ops } = FAULT_SPECS[kind];
      for (const stop of ops.stops) {
        expect(isFaultStart(stop, { target: 'n1' }), `${kind}'s stop ${stop}`).toBe(false);
        expect(shadeOfStop(stop, { target: 'n1' }), `${kind}'s stop ${stop}`).toBe(ops.shade);
      }
    }
    expect(isFaultStart('clock-offset', { target: 'n1', ms: 0 })).toBe(false);
    expect(shadeOfStop('clock-offset', { target: 'n1', ms: 0 })).toBe('clock');
  });

  it('opens and closes each kind’s window on the timeline, a moment from its invoke to its info', () => {
    for (const kind of FAULT_KINDS) {
      const { ops } = FAULT_SPECS[kind];
      const struck: Value = { target: 'n1', ms: 800 };
      const history: History = [nemesis('invoke', ops.start, struck, 10), nemesis('info', ops.start, struck, 20)];
      const undo = ops.stops[0] ?? (ops.undoes !== undefined ? ops.start : undefined);
      const undone: Value = { target: 'n1', ms: 0 };
      if (undo !== undefined) history.push(nemesis('invoke', undo, undone, 100), nemesis('info', undo, undone, 110));
      const windows = faultWindows(history);
      expect(windows, kind).toHaveLength(1);
      expect(windows[0]!.kind, kind).toBe(shadeOf(kind));
      expect(windows[0]!.start, kind).toBe(10);
      expect(windows[0]!.end, kind).toBe(isMoment(kind) ? 20 : 110);
    }
  });

  it('is what the evidence counts: an applied start, a skipped one named by its kind', () => {
    for (const kind of FAULT_KINDS) {
      const { ops } = FAULT_SPECS[kind];
      const history: History = [
        nemesis('invoke', ops.start, { target: 'n1', ms: 800 }, 10),
        nemesis('info', ops.start, { target: 'n1', ms: 800 }, 20),
        nemesis('info', ops.start, { fault: kind, target: 'holder' }, 30, { error: 'no victim' }),
      ];
      const faults = evidenceOf(history, []).faults;
      expect(faults.applied, kind).toBe(1);
      expect(faults.skipped, kind).toEqual([{ fault: kind, why: 'no victim' }]);
    }
  });
});
