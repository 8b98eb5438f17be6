/**
 * The memcached evict fault's filler pacing (core/generator/log-paced-fill.ts): the eviction lines memcached
 * owes its log stream stay under a window, so its logger's buffer never drops the line naming a lock key.
 *
 * The model of memcached below is the part of logger.c the pacing is about: a cache of `capacity` items that
 * evicts one per filler once full; a worker buffer of `bufferLines` entries, where an eviction that finds it full
 * is dropped; one logger thread that sleeps (longer while it finds nothing, as MAX_LOGGER_SLEEP lets it) and
 * delivers at most `deliverPerMs` lines a millisecond when awake. Time goes in 1-ms steps; a probe is answered in
 * the step after it is sent. Deterministic: the same numbers give the same run.
 */
import { describe, expect, it } from 'vitest';
import { LogPacedFill } from '../../core/generator/log-paced-fill.js';
import { memcachedPressurePlan, PROBE_KEY, PROBE_VALUE_BYTES } from '../../core/generator/memcached-eviction.js';

interface Memcached {
  capacity: number;
  bufferLines: number;
  deliverPerMs: number;
  /** The logger's sleep after it found nothing for a while, ms (up to 1,000 in memcached). */
  idleSleepMs: number;
  /** Chunks freed at `freedAtMs` (lock clients deleted their keys): the fillers that take them evict nothing. */
  freedChunks?: number;
  freedAtMs?: number;
}

/** Runs `ms` of filling; `paced` false writes a full batch every tick (the old fault). */
function simulate(m: Memcached, ms: number, paced = true) {
  const plan = memcachedPressurePlan({ pagesInUse: 1, probeSize: 59 + PROBE_KEY.length + PROBE_VALUE_BYTES, lockItems: [] });
  const pacer = new LogPacedFill(plan, 0);
  let stored = 0;
  let evicted = 0;
  let freed = 0;
  let buffered = 0;
  let dropped = 0;
  let delivered = 0;
  let probeAnswerAt: number | undefined;
  let loggerWakesAt = 0;
  let maxOwed = 0;
  for (let t = 0; t < ms; t++) {
    if (t === m.freedAtMs) freed += m.freedChunks ?? 0;
    if (probeAnswerAt !== undefined && t >= probeAnswerAt) {
      probeAnswerAt = undefined;
      pacer.probed(evicted, t);
    }
    if (t % plan.everyMs === 0) {
      const n = paced ? pacer.allowance(t) : plan.batch;
      for (let i = 0; i < n; i++) {
        if (stored < m.capacity) stored++;
        else if (freed > 0) freed--;
        else if (buffered < m.bufferLines) (evicted++, buffered++);
        else (evicted++, dropped++);
      }
      pacer.wrote(n);
      if (paced && pacer.wantsProbe()) {
        pacer.probeSent();
        probeAnswerAt = t + 1;
      }
    }
    if (t >= loggerWakesAt) {
      const n = Math.min(buffered, m.deliverPerMs);
      buffered -= n;
      delivered += n;
      for (let i = 0; i < n; i++) pacer.line(t);
      // Asleep long while it finds nothing, awake while lines come (memcached halves its sleep when it found some).
      loggerWakesAt = t + (n === 0 ? m.idleSleepMs : 1);
    }
    maxOwed = Math.max(maxOwed, buffered);
  }
  return { evicted, dropped, delivered, maxOwed, reopened: pacer.reopened, plan };
}

const machine: Memcached = { capacity: 11_000, bufferLines: 700, deliverPerMs: 84, idleSleepMs: 60 };

describe('filler pacing by the eviction log', () => {
  it('unpaced, 100,000 fillers a second overflow a logger that writes 84,000 lines a second (the model can fail)', () => {
    const r = simulate(machine, 2000, false);
    expect(r.dropped).toBeGreaterThan(1000);
  });

  it('paced: no eviction line is dropped, and the cache still turns over at about what the logger delivers', () => {
    const r = simulate(machine, 2000);
    expect(r.dropped).toBe(0);
    expect(r.maxOwed).toBeLessThanOrEqual(r.plan.window);
    // 2 s at ~84 lines a millisecond, less the first fill and the logger's first sleep.
    expect(r.delivered).toBeGreaterThan(100_000);
    expect(r.reopened).toBe(0);
  });

  it('a logger asleep for most of a second at the moment the cache fills drops nothing either', () => {
    const r = simulate({ ...machine, idleSleepMs: 900 }, 3000);
    expect(r.dropped).toBe(0);
    expect(r.delivered).toBeGreaterThan(50_000);
  });

  it('a slow logger (a loaded machine) slows the fillers, it does not lose lines', () => {
    const r = simulate({ ...machine, deliverPerMs: 10 }, 2000);
    expect(r.dropped).toBe(0);
    expect(r.delivered).toBeGreaterThan(15_000);
  });

  it('fillers that evict nothing (chunks a lock client freed) stall the window only until it is opened again', () => {
    const r = simulate({ ...machine, freedChunks: 450, freedAtMs: 1000 }, 4000);
    expect(r.reopened).toBeGreaterThan(0);
    expect(r.dropped).toBe(0);
    expect(r.delivered).toBeGreaterThan(100_000);
  });

  it('before the cache is full: a window of fillers per probe, none while a probe is out; after: no probe', () => {
    const p = new LogPacedFill({ batch: 200, window: 400, stallMs: 1100 }, 0);
    expect(p.allowance(0)).toBe(200);
    p.wrote(200);
    expect(p.wantsProbe()).toBe(false);
    expect(p.allowance(2)).toBe(200);
    p.wrote(200);
    expect(p.wantsProbe()).toBe(true);
    p.probeSent();
    expect(p.allowance(4)).toBe(0);
    p.probed(0, 5);
    expect(p.isFull).toBe(false);
    expect(p.allowance(6)).toBe(200);
    p.wrote(200);
    p.wrote(200);
    p.probeSent();
    // The probe saw 300 evictions: 300 lines owed, 100 more fillers allowed until lines come.
    p.probed(300, 8);
    expect(p.isFull).toBe(true);
    expect(p.allowance(8)).toBe(100);
    p.wrote(100);
    expect(p.wantsProbe()).toBe(false);
    expect(p.allowance(10)).toBe(0);
    for (let i = 0; i < 150; i++) p.line(11);
    expect(p.allowance(12)).toBe(150);
    // Owed 250 now, under the window: no stall however long it waits.
    expect(p.allowance(5000)).toBe(150);
  });

  it('refuses settings it cannot pace with', () => {
    expect(() => new LogPacedFill({ batch: 0, window: 400, stallMs: 1 }, 0)).toThrow(RangeError);
    expect(() => new LogPacedFill({ batch: 10, window: 0.5, stallMs: 1 }, 0)).toThrow(RangeError);
    expect(() => new LogPacedFill({ batch: 10, window: 10, stallMs: 0 }, 0)).toThrow(RangeError);
  });
});
