/**
 * A part decided by a guessed order (Model.orderHint, proven-order.ts): the
 * proof takes only a true linearization, a guess that lies never changes a
 * verdict or a witness, and kv's guess (kv-order-hint.ts) decides most valid
 * keys with no search while every verdict and witness stays the search's.
 *
 * Replay any run with the seed it prints: FC_SEED=<seed> npx vitest run test/checkers/order-hint.test.ts
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { History } from '../../core/history/op.js';
import { check, pairingOptions, searchOrder } from '../../core/checkers/linearizability/check.js';
import { isLinearization, provenPart } from '../../core/checkers/linearizability/proven-order.js';
import { toOperations } from '../../core/checkers/linearizability/to-operations.js';
import type { Model } from '../../core/checkers/model.js';
import { withDefaults } from '../../core/checkers/model-defaults.js';
import { kvModel, type KvCell } from '../../core/checkers/models/kv.js';
import { kvOrderHint } from '../../core/checkers/models/kv-order-hint.js';
import { buildHistory, historyArbitrary, linearizableHistoryArbitrary, type EventSpec } from '../support/random-history.js';
import { testSeed } from '../support/seed.js';

const seed = testSeed('order hint', 'test/checkers/order-hint.test.ts');
const kv = kvModel();
const searchOnly: Model<KvCell> = { ...kvModel(), orderHint: undefined };

/** One key's ops in the search's order, from events on key "k". */
function part(events: EventSpec[]) {
  const ops = toOperations(buildHistory(events), pairingOptions(kv));
  return searchOrder(withDefaults(kv).partition(ops))[0]!;
}

/** What a verdict says, without its timing: the same from the guess and from the search. */
function decision(h: History, model: Model<KvCell>) {
  const r = check(model, h);
  return { valid: r.valid, witness: r.witness, reason: r.reason };
}

describe('a guessed order proves a part only when it is a linearization', () => {
  // p0 appends "a" (0-3), p1 appends "b" (1-2) inside it, p2 reads "ba" (4-5), p3's append "c" never returns.
  const ops = part([
    { process: 0, type: 'invoke', f: 'append', value: ['k', 'a'] },
    { process: 1, type: 'invoke', f: 'append', value: ['k', 'b'] },
    { process: 1, type: 'ok', f: 'append', value: ['k', 'b'] },
    { process: 0, type: 'ok', f: 'append', value: ['k', 'a'] },
    { process: 2, type: 'invoke', f: 'get', value: ['k', null] },
    { process: 2, type: 'ok', f: 'get', value: ['k', 'ba'] },
    { process: 3, type: 'invoke', f: 'append', value: ['k', 'c'] },
  ]);
  const at = (f: string, v: string) => ops.findIndex((o) => o.f === f && ((o.f === 'get' ? o.output : o.input) as string[])[1] === v);
  const [a, b, get, c] = [at('append', 'a'), at('append', 'b'), at('get', 'ba'), at('append', 'c')];
  const model = withDefaults(kv);

  it('takes a linearization, with or without the pending op', () => {
    expect(isLinearization(model, ops, [b, a, get])).toBe(true);
    expect(isLinearization(model, ops, [b, a, get, c])).toBe(true);
  });

  it('refuses an illegal step, a completed op left out or twice, an index not of the part, and an order against real time', () => {
    expect(isLinearization(model, ops, [a, b, get]), 'the get reads "ab" there').toBe(false);
    expect(isLinearization(model, ops, [b, a]), 'the get left out').toBe(false);
    expect(isLinearization(model, ops, [b, a, a, get]), 'an op twice').toBe(false);
    expect(isLinearization(model, ops, [b, a, get, ops.length]), 'no such op').toBe(false);
    expect(isLinearization(model, ops, [b, a, get, -1]), 'no such op').toBe(false);
    // c was invoked after the get returned, so it cannot come before the get (and then "bac" would be read).
    expect(isLinearization(model, ops, [b, a, c, get]), 'against real time').toBe(false);
  });

  it("kv's guess finds that order", () => {
    expect(kvOrderHint(ops)).toEqual([b, a, get]);
    expect(provenPart(model, ops)?.outcome.valid).toBe(true);
  });
});

describe('the guess never changes a verdict', () => {
  it('a guess that lies (any permutation of the ops) gives the verdicts and witnesses of the search alone', () => {
    fc.assert(
      fc.property(historyArbitrary('kv'), fc.nat(), (h, shuffleSeed) => {
        const liar: Model<KvCell> = {
          ...kvModel(),
          orderHint: (ops) => shuffled(ops.length, shuffleSeed),
        };
        expect(decision(h, liar)).toEqual(decision(h, searchOnly));
      }),
      { seed, numRuns: 2_000 },
    );
  });

  it("kv's guess gives the search's verdicts and witnesses on random histories, valid and invalid", () => {
    let invalid = 0;
    fc.assert(
      fc.property(historyArbitrary('kv'), (h) => {
        const d = decision(h, kv);
        expect(d).toEqual(decision(h, searchOnly));
        if (d.valid === false) invalid++;
      }),
      { seed, numRuns: 3_000 },
    );
    // The property saw both kinds: invalid histories are where a wrong proof would show.
    expect(invalid).toBeGreaterThan(300);
  });

  it('decides nearly every key of histories linearizable by construction with no search when writes are unique, every one valid', () => {
    const share = (uniqueWrites: boolean): number => {
      let parts = 0;
      let proven = 0;
      fc.assert(
        fc.property(linearizableHistoryArbitrary('kv', 60, { uniqueWrites }), (h) => {
          expect(check(kv, h).valid).toBe(true);
          const model = withDefaults(kv);
          for (const p of searchOrder(model.partition(toOperations(h, pairingOptions(kv))))) {
            parts++;
            if (provenPart(model, p) !== undefined) proven++;
          }
        }),
        { seed, numRuns: 300 },
      );
      return proven / parts;
    };
    // Values of their own name the writes (Jepsen's and Porcupine's histories); a walk that meets identical values
    // it cannot tell apart (every write here "x" or "y") gives up more often, and the search decides those.
    expect(share(true)).toBeGreaterThan(0.9);
    expect(share(false)).toBeGreaterThan(0.3);
  });
});

/** A seeded permutation of 0..n-1 (Fisher-Yates over a small LCG). */
function shuffled(n: number, s: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  let x = s >>> 0 || 1;
  for (let i = n - 1; i > 0; i--) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
