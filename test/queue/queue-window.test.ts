/**
 * `--script` of a queue run: generated windows written out and read back give the same windows, and the plan
 * takes them in place of the drawn ones (jobs still from the seed); every bad field (a missing or extra one, a
 * time past the limit, an unknown fault, windows out of order, a duplicate key, not JSON) is a 254 naming the
 * window and the field, with a hint; a window whose fault --nemesis does not name is refused; the replay
 * command carries the windows.
 */
import { describe, expect, it } from 'vitest';
import { EXIT, UsageError } from '../../core/errors.js';
import { Prng } from '../../core/random/prng.js';
import { parseQueueScript, queueScriptText, TAKER_FAULTS, WINDOW_FAULTS, type QueueWindow } from '../../core/queue/queue-window.js';
import { planQueueRun } from '../../core/queue/queue-plan.js';
import { queueReplayCommand, validateQueueOptions, type QueueRunOptions } from '../../core/queue/queue-options.js';
import { MATRIX_SETTINGS } from '../../core/queue/queue-matrix.js';
import { testSeed } from '../support/seed.js';

const GOOD: QueueRunOptions = {
  backend: 'redis',
  client: 'bullmq',
  resource: 'none',
  nemesis: ['client-pause', 'client-kill', 'server-kill'],
  ...MATRIX_SETTINGS,
  resultsDir: 'results',
};

function randomWindows(rng: Prng, timeLimitS: number): QueueWindow[] {
  const n = rng.int(0, 6);
  const ats = Array.from({ length: n }, () => rng.int(0, timeLimitS * 1000 - 1)).sort((a, b) => a - b);
  return ats.map((atMs) => {
    const fault = rng.pick(WINDOW_FAULTS);
    // A taker's window aimed after its take in about half the cases (0 included: at the take, said so).
    const aim = TAKER_FAULTS.includes(fault) && rng.float() < 0.5 ? { afterTakeMs: rng.int(0, 5000) } : {};
    return { atMs, durationMs: rng.int(1, 20_000), fault, ...(fault === 'delay' ? { delayMs: rng.int(1, 5000) } : {}), ...aim };
  });
}

function refusal(text: string, timeLimitS = 30): UsageError {
  try {
    parseQueueScript(text, timeLimitS);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`accepted: ${text}`);
}

describe("a queue run's --script", () => {
  it("generated windows round-trip through the text, and the plan runs them with the seed's jobs", () => {
    const rng = new Prng(testSeed('queue script round trip', 'test/queue/queue-window.test.ts'));
    for (let i = 0; i < 200; i++) {
      const windows = randomWindows(rng, GOOD.timeLimitS);
      expect(parseQueueScript(queueScriptText(windows), GOOD.timeLimitS)).toEqual(windows);
      const plan = planQueueRun({ ...GOOD, windows });
      expect(plan.stalls).toEqual(windows);
      expect(plan.jobs).toEqual(planQueueRun(GOOD).jobs);
    }
  });

  it.each([
    ['{"atMs":1}', /JSON array/],
    ['[1]', /window 1 .\(window\)./],
    ['[{"durationMs":100,"fault":"pause"}]', /window 1 .atMs./],
    ['[{"atMs":30000,"durationMs":100,"fault":"pause"}]', /window 1 .atMs. .*below the time limit/],
    ['[{"atMs":-1,"durationMs":100,"fault":"pause"}]', /window 1 .atMs./],
    ['[{"atMs":1.5,"durationMs":100,"fault":"pause"}]', /window 1 .atMs./],
    ['[{"atMs":0,"durationMs":0,"fault":"pause"}]', /window 1 .durationMs./],
    ['[{"atMs":0,"durationMs":100,"fault":"clock"}]', /window 1 .fault. to be one of pause, kill, partition, effect-kill, server-kill, delay/],
    ['[{"atMs":0,"durationMs":100,"fault":"delay"}]', /window 1 .delayMs./],
    ['[{"atMs":0,"durationMs":100,"fault":"delay","delayMs":0}]', /window 1 .delayMs./],
    ['[{"atMs":0,"durationMs":100,"fault":"pause","delayMs":50}]', /window 1 .delayMs. to be absent/],
    ['[{"atMs":0,"durationMs":100,"fault":"pause","extra":1}]', /window 1 .extra. to be absent/],
    ['[{"atMs":0,"durationMs":100,"fault":"kill","afterTakeMs":50}]', /window 1 .afterTakeMs. to be absent/],
    ['[{"atMs":0,"durationMs":100,"fault":"server-kill","afterTakeMs":50}]', /window 1 .afterTakeMs. to be absent/],
    ['[{"atMs":0,"durationMs":100,"fault":"pause","afterTakeMs":-1}]', /window 1 .afterTakeMs. to be a whole number/],
    ['[{"atMs":0,"durationMs":100,"fault":"partition","afterTakeMs":2.5}]', /window 1 .afterTakeMs. to be a whole number/],
    ['[{"atMs":0,"durationMs":100,"fault":"delay","delayMs":5,"afterTakeMs":"9"}]', /window 1 .afterTakeMs. to be a whole number/],
    ['[{"atMs":5,"durationMs":100,"fault":"pause"},{"atMs":4,"durationMs":100,"fault":"kill"}]', /window 2 .atMs. to be at least window 1's/],
    ['[{"atMs":0,"atMs":9,"durationMs":100,"fault":"pause"}]', /JSON/],
    ['[{"atMs":0,', /JSON/],
  ])('refuses %s with 254, the window and the field', (text, message) => {
    const err = refusal(text);
    expect(err.exitCode).toBe(EXIT.badInput);
    expect(err.message).toMatch(message);
    expect(err.hint).toMatch(/atMs/);
  });

  it('a window whose fault --nemesis does not name is refused; the replay command carries the windows', () => {
    const windows: QueueWindow[] = [{ atMs: 3000, durationMs: 4000, fault: 'kill' }];
    expect(() => validateQueueOptions({ ...GOOD, nemesis: ['client-pause'], windows })).toThrow(/include client-kill for .--script. window 1/);
    const replay = queueReplayCommand({ ...GOOD, windows });
    expect(replay).toContain(`--script '${queueScriptText(windows)}'`);
  });
});
