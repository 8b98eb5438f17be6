/** The time left and the live line, on a fake clock and fake timers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompareProgress, etaMs, progressText } from '../../src/compare/compare-progress.js';
import { formatDuration } from '../../src/compare/format-units.js';
import { fakeClock } from './fixture-runs.js';

afterEach(() => void vi.useRealTimers());

describe('progress', () => {
  it('estimates the time left from the mean finished run, or guesses before any', () => {
    expect(etaMs({ done: 0, total: 4, elapsedMs: 0, durations: [], guessMs: 50_000 })).toEqual({ ms: 200_000, guessed: true });
    expect(etaMs({ done: 2, total: 5, elapsedMs: 0, durations: [10_000, 30_000], guessMs: 1 })).toEqual({ ms: 60_000, guessed: false });
    expect(progressText({ done: 0, total: 2, elapsedMs: 5_000, durations: [], guessMs: 45_000 })).toBe('0/2 done · 5s elapsed · ETA ~1m30s');
  });

  it('formats durations as a person reads them', () => {
    expect([0, 999, 45_000, 185_000, 3_725_000].map(formatDuration)).toEqual(['0s', '1s', '45s', '3m05s', '1h02m']);
  });

  it('on a terminal, redraws a live line every second and clears it above each printed line', () => {
    vi.useFakeTimers();
    const clock = fakeClock();
    const out: string[] = [];
    const p = new CompareProgress({ write: (t) => void out.push(t), live: true, now: clock.now }, 3, [20_000], 30_000);
    p.start('redis/none/kill seed 2');
    clock.tick(7_000);
    vi.advanceTimersByTime(1000);
    expect(out.at(-1)).toBe('\r\x1b[2K[2/3] redis/none/kill seed 2 · 7s in run · 1/3 done · 7s elapsed · ETA 40s');
    p.line('hello');
    expect(out.slice(-2)).toEqual(['\r\x1b[2Khello\n', '\r\x1b[2K[2/3] redis/none/kill seed 2 · 7s in run · 1/3 done · 7s elapsed · ETA 40s']);
    p.stop();
    expect(out.at(-1)).toBe('\r\x1b[2K');
    const count = out.length;
    vi.advanceTimersByTime(5000);
    expect(out).toHaveLength(count);
  });
});
