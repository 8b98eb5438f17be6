/**
 * Shares of one history's parts, searched one after the other in either
 * order (what two threads may do at any relative speed), combine into the
 * verdict one thread gives. The history is made so that the order matters:
 * key "0" breaks late (many rounds in) and key "3" early, so a share holding
 * key "0" alone could reach its violation first in time, while one thread
 * reports key "3" (found in an earlier round).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeLongKvHistory } from '../../bench/long-kv-history.js';
import { checkOperations, searchOrder } from '../../core/checkers/linearizability/check.js';
import { withDefaults } from '../../core/checkers/model-defaults.js';
import { createModel } from '../../core/checkers/models/registry.js';
import { readChecked } from '../../src/check/check-files.js';
import { combine, NO_INVALID_ROUND, searchShare, type ShareOutcome } from '../../core/checkers/linearizability/shares.js';
import { performanceNow } from '../../core/checkers/linearizability/result.js';
import { testSeed } from '../support/seed.js';
import { madeTempDir } from '../support/temp-dirs.js';

describe('shares searched in either order', () => {
  // Made when this block's tests run (a filter, -t, that skips them all would skip a removal hook too).
  let dir = '';
  beforeAll(() => (dir = madeTempDir('fencecheck-shares-')));
  const seed = testSeed('shares in either order', 'test/check/search-share.test.ts');

  it("give one thread's witness, whichever share runs first", () => {
    const file = join(dir, 'two-broken.txt');
    writeLongKvHistory(file, { ops: 40_000, seed, keys: 4, infoRate: 0 });
    const lines = readFileSync(file, 'utf8').split('\n');
    const okGets = (key: string) => lines.flatMap((l, i) => (l.includes(`:type :ok, :f :get, :key "${key}"`) ? [i] : []));
    const corrupt = (i: number) => (lines[i] = lines[i]!.replace(/:value (nil|"[^"]*")\}$/, ':value "corrupt"}'));
    corrupt(okGets('0').at(-1)!);
    corrupt(okGets('3')[0]!);
    writeFileSync(file, lines.join('\n'));

    const model = withDefaults(createModel('kv'));
    const ops = readChecked(file, model, {}, []).operations;
    const one = checkOperations(model, ops);
    expect(one.valid).toBe(false);
    expect(one.witness!.partitionLabel).toBe('key "3"');
    const parts = searchOrder(model.partition(ops));
    const shares = [
      [0, 1],
      [2, 3],
    ];

    const run = (order: number[]): { outcomes: ShareOutcome[]; rounds: number[] } => {
      const first = new SharedArrayBuffer(4);
      new Int32Array(first)[0] = NO_INVALID_ROUND;
      const outcomes: ShareOutcome[] = [];
      for (const s of order) {
        // Fresh part objects per run: a search keeps state in nothing it is given, but be sure.
        const own = shares[s]!.map((p) => parts[p]!.map((o) => ({ ...o })));
        outcomes[s] = searchShare(model, own, shares[s]!, {}, performance.now(), performanceNow, first);
      }
      return { outcomes, rounds: outcomes.flatMap((o) => (o.invalid ? [o.invalid.round] : [])) };
    };
    // Key "0"'s share alone first: it finds its violation, in a later round than key "3"'s.
    const zeroFirst = run([0, 1]);
    expect(zeroFirst.outcomes[0]!.invalid?.part).toBe(0);
    expect(zeroFirst.outcomes[1]!.invalid?.part).toBe(3);
    expect(zeroFirst.outcomes[0]!.invalid!.round).toBeGreaterThan(zeroFirst.outcomes[1]!.invalid!.round);
    // Key "3"'s share first: key "0"'s share stops after that round, before its own violation.
    const threeFirst = run([1, 0]);
    expect(threeFirst.outcomes[0]!.invalid).toBeUndefined();
    for (const { outcomes } of [zeroFirst, threeFirst]) {
      const combined = combine(outcomes, ops.length, parts.length, undefined, 0);
      expect(combined.valid).toBe(false);
      expect(combined.witness).toEqual(one.witness);
    }
  });
});
