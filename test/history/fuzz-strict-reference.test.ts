/**
 * Fuzzing against a strict reference decoding: random register histories
 * whose values are numbers (in every spelling, edge literals included),
 * strings, vectors, maps and (EDN) sets, written as JSON Lines or EDN with
 * every map's entries and set's members in a random order, then damaged at
 * the byte level (sequences that are not UTF-8 inserted or written over a
 * byte). Each file goes through `fencecheck check`'s pipeline and must be
 * either refused (254) or given exactly the verdict the reference gives.
 *
 * The reference is written here, from the definitions, not from the
 * product: bytes are decoded with TextDecoder's fatal mode (refused if it
 * throws); a number literal is exact-parsed with BigInt and refused when its
 * value is nonzero and at least 2^53 or below 2^-1022 in magnitude (where a
 * double cannot keep it apart from a neighbouring literal); two values are
 * equal when their reference keys are (maps and sets keyed with their entries
 * sorted, vectors in order, a set never a vector; numbers by value, and in
 * EDN an integer never a double, `1` never `1.0`, as Clojure's `=` has it);
 * and the verdict is the
 * brute-force linearizability reference over those keys
 * (test/support/brute-force-checker.ts), or "unknown" when no operation
 * completed. Seeds are printed; FC_SEED=random searches further.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createModel } from '../../core/checkers/models/registry.js';
import { checkFiles } from '../../src/check/check-files.js';
import type { History, Op } from '../../core/history/op.js';
import { referenceCheck, specFor } from '../support/brute-force-checker.js';
import { byteMutation, EDGE_LITERALS, mutateBytes, strictDecode } from '../support/mutate.js';
import { testSeed } from '../support/seed.js';
import { madeTempDir } from '../support/temp-dirs.js';

/** An abstract value: what it means is decided by the reference, how it is spelled by the renderer. */
type Tree =
  { kind: 'num'; literal: string } | { kind: 'str'; text: string } | { kind: 'vec' | 'set'; items: Tree[] } | { kind: 'map'; entries: [string, Tree][] };

const SAFE_SPELLINGS = (n: number): string[] => [String(n), `${n}.0`, `${n}e0`, `${n * 10}e-1`, `${n}.000`];

const leaf: fc.Arbitrary<Tree> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: -3, max: 3 })
      .chain((n) => fc.constantFrom(...SAFE_SPELLINGS(n)))
      .map((literal) => ({ kind: 'num' as const, literal })),
  },
  { weight: 2, arbitrary: fc.constantFrom(...EDGE_LITERALS).map((literal) => ({ kind: 'num' as const, literal })) },
  { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'é', '€😀', '').map((text) => ({ kind: 'str' as const, text })) },
);

const tree = (sets: boolean): fc.Arbitrary<Tree> =>
  fc.letrec<{ t: Tree }>((tie) => ({
    t: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('t'), { maxLength: 3 }).map((items) => ({ kind: 'vec' as const, items })),
      ...(sets ? [fc.uniqueArray(tie('t'), { maxLength: 3, selector: (t) => refKey(t, true) }).map((items) => ({ kind: 'set' as const, items }))] : []),
      fc
        .uniqueArray(fc.tuple(fc.constantFrom('p', 'q', 'r'), tie('t')), { maxLength: 3, selector: ([k]) => k })
        .map((entries) => ({ kind: 'map' as const, entries })),
    ),
  })).t;

// ---- the reference ----

/** The literal's exact value as sign * digits * 10^exp (BigInt digits), from its text alone. */
function exactDecimal(literal: string): { zero: boolean; log10Floor: number; digits: bigint; exp: number } {
  const m = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal)!;
  const digits = BigInt(`${m[2]}${m[3] ?? ''}`);
  const exp = Number(m[4] ?? 0) - (m[3] ?? '').length;
  const zero = digits === 0n;
  return { zero, log10Floor: zero ? 0 : digits.toString().length - 1 + exp, digits, exp };
}

/** Whether the reference refuses the literal: nonzero and |x| >= 2^53, or |x| < 2^-1022. */
function refRefusesNumber(literal: string): boolean {
  const d = exactDecimal(literal);
  if (d.zero) return false;
  // |x| >= 2^53  <=>  digits * 10^exp >= 2^53, compared in integers.
  const big = d.exp >= 0 ? d.digits * 10n ** BigInt(d.exp) >= 2n ** 53n : d.digits >= 2n ** 53n * 10n ** BigInt(-d.exp);
  if (big) return true;
  // |x| < 2^-1022  <=>  digits * 2^1022 < 10^-exp (exp < 0 here, or x >= 1).
  return d.exp < 0 && d.digits * 2n ** 1022n < 10n ** BigInt(-d.exp);
}

function refRefuses(t: Tree): boolean {
  if (t.kind === 'num') return refRefusesNumber(t.literal);
  if (t.kind === 'str') return false;
  if (t.kind === 'map') return t.entries.some(([, v]) => refRefuses(v));
  return t.items.some(refRefuses);
}

/**
 * Equal values, and only they, have equal keys: numbers by value (accepted ones are exact), maps and sets
 * order-free. In EDN a literal with a point or an exponent is a double, which Clojure's `=` keeps apart from
 * every integer (`1.0` is not `1`); JSON has one kind of number.
 */
function refKey(t: Tree, edn: boolean): string {
  switch (t.kind) {
    case 'num': {
      const x = Number(t.literal) === 0 ? 0 : Number(t.literal);
      return edn && /[.eE]/.test(t.literal) ? `d${x}` : `n${x}`;
    }
    case 'str':
      return `s${JSON.stringify(t.text)}`;
    case 'vec':
      return `v(${t.items.map((x) => refKey(x, edn)).join(',')})`;
    case 'set':
      return `S(${t.items
        .map((x) => refKey(x, edn))
        .sort()
        .join(',')})`;
    case 'map':
      return `M(${t.entries
        .map(([k, v]) => `${k}=${refKey(v, edn)}`)
        .sort()
        .join(',')})`;
  }
}

// ---- the renderer: any order of entries and members ----

/** The value in JSON (sets as arrays: JSON has none) or EDN, maps' entries and sets' members in the order `pick` makes. */
function renderValue(t: Tree, pick: (n: number) => number, edn: boolean): string {
  if (t.kind === 'num') return t.literal;
  if (t.kind === 'str') return JSON.stringify(t.text);
  if (t.kind === 'map') {
    const entries = shuffled(t.entries, pick).map(([k, v]) => (edn ? `:${k} ` : `${JSON.stringify(k)}:`) + renderValue(v, pick, edn));
    return `{${entries.join(', ')}}`;
  }
  const items = (t.kind === 'set' && edn ? shuffled(t.items, pick) : t.items).map((x) => renderValue(x, pick, edn)).join(edn ? ' ' : ',');
  return t.kind === 'set' && edn ? `#{${items}}` : `[${items}]`;
}

function shuffled<X>(xs: readonly X[], pick: (n: number) => number): X[] {
  const rest = [...xs];
  const out: X[] = [];
  while (rest.length > 0) out.push(rest.splice(pick(rest.length), 1)[0]!);
  return out;
}

// ---- histories ----

interface AbstractOp {
  process: number;
  type: Op['type'];
  f: 'read' | 'write';
  value: Tree | null;
}

/** A well-formed register history over `values`: each process invokes, then completes (or never does). */
const history = (sets: boolean): fc.Arbitrary<AbstractOp[]> =>
  fc
    .record({
      values: fc.array(tree(sets), { minLength: 1, maxLength: 3 }),
      steps: fc.array(
        fc.record({
          process: fc.nat(2),
          f: fc.constantFrom('read' as const, 'write' as const),
          v: fc.nat(),
          outcome: fc.constantFrom('ok', 'ok', 'ok', 'info', 'fail'),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      interleave: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    })
    .map(({ values, steps, interleave }) => {
      const ops: AbstractOp[] = [];
      const open = new Map<number, AbstractOp>();
      steps.forEach((s, i) => {
        const pending = open.get(s.process);
        if (pending !== undefined) {
          ops.push(pending);
          open.delete(s.process);
        }
        const value = values[s.v % values.length]!;
        ops.push({ process: s.process, type: 'invoke', f: s.f, value: s.f === 'write' ? value : null });
        const done: AbstractOp = { process: s.process, type: s.outcome as Op['type'], f: s.f, value: s.outcome === 'ok' ? value : null };
        // Completed now, or left open to overlap with the next ops.
        if (interleave[i] === true) open.set(s.process, done);
        else ops.push(done);
      });
      for (const done of open.values()) ops.push(done);
      return ops;
    });

/** The reference verdict on the abstract history: valid/invalid by brute force over value keys, unknown if nothing completed. */
function referenceVerdict(ops: AbstractOp[], format: 'jsonl' | 'edn'): true | false | 'unknown' {
  if (!ops.some((o) => o.type === 'ok')) return 'unknown';
  const ids = new Map<string, number>();
  const id = (t: Tree | null): number | null => {
    if (t === null) return null;
    const key = refKey(t, format === 'edn');
    if (!ids.has(key)) ids.set(key, ids.size + 1);
    return ids.get(key)!;
  };
  const h: History = ops.map((o, index) => ({ index, time: index, process: o.process, type: o.type, f: o.f, value: id(o.value) }));
  return referenceCheck(specFor('register'), h).valid;
}

function render(ops: AbstractOp[], format: 'jsonl' | 'edn', pick: (n: number) => number): string {
  if (format === 'jsonl') {
    return (
      ops
        .map(
          (o, i) =>
            `{"index":${i},"time":${i},"process":${o.process},"type":"${o.type}","f":"${o.f}","value":${o.value === null ? 'null' : renderValue(o.value, pick, false)}}`,
        )
        .join('\n') + '\n'
    );
  }
  return `[${ops.map((o, i) => `{:index ${i}, :time ${i}, :process ${o.process}, :type :${o.type}, :f :${o.f}, :value ${o.value === null ? 'nil' : renderValue(o.value, pick, true)}}`).join('\n ')}]\n`;
}

describe("mutated histories are refused or get the strict reference decoding's verdict", () => {
  const dir = madeTempDir('fencecheck-fuzz-strict-');
  let written = 0;

  // FC_RUNS=N for a longer search (with FC_SEED=random: fresh cases); the timeout grows with it.
  const runs = Number(process.env.FC_RUNS ?? 600);
  it('JSON Lines and EDN, values reordered, edge literals, bytes that are not UTF-8', { timeout: 60_000 + 50 * runs }, async () => {
    const seed = testSeed('fuzz strict reference', 'test/history/fuzz-strict-reference.test.ts');
    const tally = { refusedUtf8: 0, refusedNumber: 0, verdicts: 0, unknown: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom('jsonl' as const, 'edn' as const)
          .chain((format) =>
            fc.tuple(
              fc.constant(format),
              history(format === 'edn'),
              fc.array(fc.nat(), { minLength: 32, maxLength: 32 }),
              fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(byteMutation, { minLength: 1, maxLength: 2 }) }),
            ),
          ),
        async ([format, ops, choices, damage]) => {
          let i = 0;
          const text = render(ops, format, (n) => choices[i++ % choices.length]! % n);
          const bytes = mutateBytes(Buffer.from(text), damage);
          const file = join(dir, `${written++}.${format}`);
          writeFileSync(file, bytes);
          const [r] = await checkFiles([file], createModel('register'), { timeoutMs: 5000 });
          const decoded = strictDecode(bytes);
          if (decoded === null) {
            tally.refusedUtf8++;
            expect(r!.result, `a verdict on bytes that are not UTF-8: ${file}`).toBeUndefined();
            expect(r!.error?.exitCode).toBe(254);
            return;
          }
          // Valid UTF-8 damage changed the text: only a refusal or a verdict on what was read is known then; skip unless untouched.
          if (decoded !== text) {
            if (r!.error) expect(r!.error.exitCode).toBe(254);
            return;
          }
          if (ops.some((o) => o.value !== null && refRefuses(o.value))) {
            tally.refusedNumber++;
            expect(r!.result, `a verdict on a number literal a double cannot keep apart: ${text}`).toBeUndefined();
            expect(r!.error?.exitCode).toBe(254);
            return;
          }
          expect(r!.error, r!.error?.message).toBeUndefined();
          const expected = referenceVerdict(ops, format);
          expect(r!.result!.valid, text).toBe(expected);
          tally.verdicts++;
          if (expected === 'unknown') tally.unknown++;
          if (expected === false) tally.invalid++;
        },
      ),
      { seed, numRuns: runs },
    );
    console.log(
      `[fuzz strict reference] ${runs} cases: ${tally.verdicts} verdicts equal to the reference (${tally.invalid} invalid, ${tally.unknown} unknown), ${tally.refusedUtf8} refused as not UTF-8, ${tally.refusedNumber} refused for a number literal`,
    );
    // The property would pass by refusing everything or deciding nothing: it does not.
    expect(tally.verdicts).toBeGreaterThan(runs / 10);
    expect(tally.invalid).toBeGreaterThan(0);
    expect(tally.refusedUtf8).toBeGreaterThan(0);
    expect(tally.refusedNumber).toBeGreaterThan(0);
  });
});
