/**
 * A hunt's progress line is said once for each state: several lanes ending their tries or confirmations one
 * after another never say the same count twice; a line that first says the hunt stopped at its violation is
 * said though its count was said before; and a count lower than one said (a lane that ends late) is not said.
 * Generated sequences (seeded) against the rule written plainly.
 */
import { describe, expect, it } from 'vitest';
import { ProgressLine } from '../../src/hunt/hunt-loop.js';
import { Prng } from '../../core/random/prng.js';
import { testSeed } from '../support/seed.js';

describe("a hunt's progress line", () => {
  it('says a state once: more tries done, or the first stop', () => {
    const rng = new Prng(testSeed('progress line', 'test/hunt/progress-line.test.ts'));
    for (let round = 0; round < 200; round++) {
      const said: string[] = [];
      const p = new ProgressLine((l) => said.push(l));
      const expected: string[] = [];
      let most = 0;
      let stoppedSaid = false;
      for (let i = 0; i < rng.int(1, 12); i++) {
        const done = Math.max(0, most + rng.int(-2, 2));
        const stopped = rng.float() < 0.2;
        const line = `try ${done} done${stopped ? ' · stopped at the violation' : ''}`;
        if (done > most || (stopped && !stoppedSaid)) expected.push(line);
        if (done > most || (stopped && !stoppedSaid)) [most, stoppedSaid] = [Math.max(most, done), stoppedSaid || stopped];
        p.say(done, stopped, () => line);
      }
      expect(said).toEqual(expected);
    }
  });

  it('two lanes ending at one count say it once; the stop after it is said', () => {
    const said: string[] = [];
    const p = new ProgressLine((l) => said.push(l));
    p.say(1, false, () => 'try 1 done');
    p.say(2, false, () => 'try 2 done');
    p.say(2, false, () => 'try 2 done, again');
    p.say(2, true, () => 'try 2 done · stopped at the violation');
    p.say(2, true, () => 'try 2 done · stopped at the violation, again');
    expect(said).toEqual(['try 1 done', 'try 2 done', 'try 2 done · stopped at the violation']);
  });
});
