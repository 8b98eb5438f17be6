import { describe, expect, it } from 'vitest';
import { DelayLine, type Clock } from '../../runtime/nemesis/delay-line.js';

/** Virtual time: timers run when the test advances the clock. */
function virtualClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimeout(fn, ms) {
      timers.push({ at: now + ms, fn });
      return undefined;
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = next.at;
        next.fn();
      }
      now = end;
    },
  };
}

/** A delay line on a virtual clock that records [time out, chunk]. */
function recordingLine(delayMs: number): { clock: ReturnType<typeof virtualClock>; out: [number, string][]; line: DelayLine<string> } {
  const clock = virtualClock();
  const out: [number, string][] = [];
  return { clock, out, line: new DelayLine<string>((s) => out.push([clock.now(), s]), delayMs, clock) };
}

describe('DelayLine', () => {
  it('delivers each chunk delayMs after it arrived, in order', () => {
    const { clock, out, line } = recordingLine(100);
    line.push('a');
    clock.advance(30);
    line.push('b');
    clock.advance(69);
    expect(out).toEqual([]);
    clock.advance(1);
    expect(out).toEqual([[100, 'a']]);
    clock.advance(30);
    expect(out).toEqual([
      [100, 'a'],
      [130, 'b'],
    ]);
  });

  it('never reorders when the delay drops', () => {
    const { clock, out, line } = recordingLine(500);
    line.push('slow');
    line.setDelay(0);
    line.push('fast');
    clock.advance(1000);
    expect(out).toEqual([
      [500, 'slow'],
      [500, 'fast'],
    ]);
  });

  it('ends only after everything queued is out', () => {
    const clock = virtualClock();
    const events: string[] = [];
    const line = new DelayLine<string>((s) => events.push(s), 50, clock);
    line.push('x');
    line.end(() => events.push('end'));
    expect(events).toEqual([]);
    clock.advance(50);
    expect(events).toEqual(['x', 'end']);
    expect(line.pending).toBe(0);
  });

  it('rejects a negative delay', () => {
    expect(() => new DelayLine<string>(() => undefined, 0).setDelay(-1)).toThrow(/0 ms or more/);
  });
});
