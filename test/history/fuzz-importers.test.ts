/**
 * Fuzzing as a test: every importer, through the same pipeline as `fencecheck
 * check` (checkFiles: detect or force a format, read with the limits, validate,
 * check against a model), fed mutated corpus files and generated garbage. The
 * only outcomes allowed are a verdict on a history that was read whole and
 * validated, or a 254 error that names the file (a ParseError also its
 * line:column). Any other exception fails the property; so would a hang (the
 * check has a deadline, the reading is linear) and so would memory growing
 * without bound (the limits are set low here and the heap is measured).
 *
 * Seeds come from test/support/seed.ts and are printed; replay with FC_SEED.
 * Without ../shared/data the corpus property is skipped with a message and
 * the generated bases still run.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { readFileSync } from 'node:fs';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createModel, MODEL_NAMES, type ModelName } from '../../core/checkers/models/registry.js';
import { checkFiles, type FileCheck } from '../../src/check/check-files.js';
import { readManifest } from '../../src/corpus/manifest.js';
import { ParseError } from '../../core/errors.js';
import { HISTORY_FORMATS, type HistoryFormat } from '../../src/history/read-history.js';
import { testSeed } from '../support/seed.js';
import { byteMutation, garbage, mutate, mutateBytes, mutations, strictDecode } from '../support/mutate.js';
import { CHUNK_BYTES } from '../../src/history/read-chunks.js';

const dir = madeTempDir('fencecheck-fuzz-');

interface Base {
  name: string;
  text: string;
  model: ModelName;
}

const op = (index: number, process: number | string, type: string, f: string, value: unknown) =>
  JSON.stringify({ index, time: index * 10, process, type, f, value });
const GENERATED: Base[] = [
  {
    name: 'cas.jsonl',
    model: 'cas-register',
    text:
      [
        op(0, 0, 'invoke', 'write', 1),
        op(1, 1, 'invoke', 'cas', [1, 2]),
        op(2, 0, 'ok', 'write', 1),
        op(3, 1, 'ok', 'cas', [1, 2]),
        op(4, 'nemesis', 'info', 'start', null),
        op(5, 2, 'invoke', 'read', null),
        op(6, 2, 'ok', 'read', 2),
      ].join('\n') + '\n',
  },
  {
    name: 'kv.jsonl',
    model: 'kv',
    text:
      [
        op(0, 0, 'invoke', 'put', ['a', 'x']),
        op(1, 0, 'ok', 'put', ['a', 'x']),
        op(2, 1, 'invoke', 'append', ['a', 'y']),
        op(3, 1, 'info', 'append', null),
        op(4, 2, 'invoke', 'get', ['a', null]),
        op(5, 2, 'ok', 'get', ['a', 'xy']),
      ].join('\n') + '\n',
  },
];

function corpusBases(): Base[] {
  const entries = readManifest();
  if (entries === undefined) return [];
  const pick = (file: string) => entries.find((e) => e.file === file);
  const bases: Base[] = [];
  for (const file of ['porcupine/etcd/etcd_000.log', 'porcupine/kv/c01-ok.txt']) {
    const e = pick(file);
    if (e) bases.push({ name: file.split('/').pop()!, text: readFileSync(e.path, 'utf8'), model: e.model });
  }
  const edn = pick('knossos/mutex/etcd-bad.edn');
  // Its first 40 ops, closed again: the whole file is 86 KB, and the parsers are what is fuzzed, not the search.
  if (edn) bases.push({ name: 'etcd-bad.edn', text: `${readFileSync(edn.path, 'utf8').split('\n').slice(0, 40).join('\n')}]\n`, model: edn.model });
  return bases;
}

const LIMITS = { maxLineChars: 2 ** 20, maxHistoryBytes: 8 * 2 ** 20 };
let written = 0;

/** One file through the check pipeline; the result must be an allowed outcome. */
async function checkOne(name: string, text: string | Uint8Array, model: ModelName, format: HistoryFormat | undefined): Promise<FileCheck> {
  const file = join(dir, `${written++}-${name}`);
  writeFileSync(file, text);
  const [r] = await checkFiles([file], createModel(model), { ...(format ? { format } : {}), limits: LIMITS, timeoutMs: 200, maxCacheBytes: 32 * 2 ** 20 });
  rmSync(file);
  assertAllowed(r!, file);
  if (typeof text !== 'string') assertStrictlyDecoded(r!, text);
  return r!;
}

// Bytes a strict decoder refuses never get a verdict; in a file of one chunk the refusal is the UTF-8 one itself.
function assertStrictlyDecoded(r: FileCheck, bytes: Uint8Array): void {
  if (strictDecode(bytes) !== null) return;
  tally.invalidUtf8++;
  expect(r.result, 'a verdict on bytes that are not UTF-8').toBeUndefined();
  if (bytes.length < CHUNK_BYTES) expect((r.error as ParseError).expected).toBe('UTF-8 text');
}

function assertAllowed(r: FileCheck, file: string): void {
  if (r.error !== undefined) {
    expect(r.error.exitCode, r.error.message).toBe(254);
    expect(r.error.message).toContain(file);
    if (r.error instanceof ParseError) {
      expect(r.error.line).toBeGreaterThanOrEqual(1);
      expect(r.error.column).toBeGreaterThanOrEqual(1);
    }
    return;
  }
  expect([true, false, 'unknown']).toContain(r.result!.valid);
  // A verdict only on a history that has client operations (an empty one is bad input).
  expect(r.result!.stats).toBeDefined();
}

// Mostly detected (the path a user takes), sometimes forced, often wrongly.
const formatChoice = fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...HISTORY_FORMATS) });
const modelChoice = (own: ModelName) => fc.oneof({ weight: 4, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: fc.constantFrom(...MODEL_NAMES) });
const tally = { runs: 0, verdicts: 0, errors: 0, invalidUtf8: 0, ms: 0, heapPeakMb: 0 };

function record(r: FileCheck): void {
  tally.runs++;
  if (r.error) tally.errors++;
  else tally.verdicts++;
  tally.heapPeakMb = Math.max(tally.heapPeakMb, process.memoryUsage().heapUsed / 2 ** 20);
}

describe('importers under fuzzing: a verdict on a well-formed history or a 254 with a position, nothing else', () => {
  const bases = [...GENERATED, ...corpusBases()];
  const heapBefore = process.memoryUsage().heapUsed / 2 ** 20;

  it('mutated inputs (generated and, when present, the corpus), formats detected or forced, models right or wrong', async () => {
    if (bases.length === GENERATED.length) console.log('[fuzz importers] ../shared/data absent: corpus bases skipped, generated bases only');
    const seed = testSeed('fuzz importers: mutated', 'test/history/fuzz-importers.test.ts');
    const t0 = performance.now();
    await fc.assert(
      fc.asyncProperty(
        fc
          .nat({ max: bases.length - 1 })
          .chain((i) => fc.tuple(fc.constant(bases[i]!), mutations, formatChoice, modelChoice(bases[i]!.model), fc.array(byteMutation, { maxLength: 2 }))),
        async ([base, list, format, model, bytes]) => {
          const text = mutate(base.text, list);
          record(await checkOne(base.name, bytes.length === 0 ? text : mutateBytes(Buffer.from(text), bytes), model, format ?? undefined));
        },
      ),
      { seed, numRuns: 1000 },
    );
    tally.ms += performance.now() - t0;
  });

  it('JSON Lines with one field of one op replaced (values the model cannot read, huge numbers, deep nesting, other types)', async () => {
    const seed = testSeed('fuzz importers: fields', 'test/history/fuzz-importers.test.ts');
    const t0 = performance.now();
    const jsonl = GENERATED;
    const nasty = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom<unknown>(5, -1, 2 ** 53, 1.5, '', 'nemesis', null, [], [1], [1, 2, 3], ['k'], ['k', 5], [5, 'x'], { a: 1 }),
      fc.integer({ min: 900, max: 1100 }).map((n) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`) as unknown),
    );
    let verdicts = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: jsonl.length - 1 }),
        fc.nat(),
        fc.constantFrom('index', 'time', 'process', 'type', 'f', 'value', 'error', 'extra'),
        nasty,
        async (b, at, field, value) => {
          const base = jsonl[b]!;
          const lines = base.text
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as Record<string, unknown>);
          lines[at % lines.length]![field] = value;
          const r = await checkOne(base.name, lines.map((l) => JSON.stringify(l)).join('\n') + '\n', base.model, undefined);
          if (!r.error) verdicts++;
          record(r);
        },
      ),
      { seed, numRuns: 500 },
    );
    tally.ms += performance.now() - t0;
    console.log(`[fuzz importers: fields] 500 runs, ${verdicts} verdicts`);
  });

  it('the unmutated bases still get their verdicts (the property is not passing by refusing everything)', async () => {
    for (const base of bases) {
      const r = await checkOne(base.name, base.text, base.model, undefined);
      expect(r.error, base.name).toBeUndefined();
    }
  });

  it('generated garbage, with and without a forced format', async () => {
    const seed = testSeed('fuzz importers: garbage', 'test/history/fuzz-importers.test.ts');
    const t0 = performance.now();
    await fc.assert(
      fc.asyncProperty(
        garbage,
        formatChoice,
        fc.constantFrom(...MODEL_NAMES),
        fc.constantFrom('g.jsonl', 'g.edn', 'g.log', 'g.txt'),
        async (text, format, model, name) => {
          record(await checkOne(name, text, model, format ?? undefined));
        },
      ),
      { seed, numRuns: 300 },
    );
    tally.ms += performance.now() - t0;
    console.log(
      `[fuzz importers] ${tally.runs} runs in ${Math.round(tally.ms)} ms: ${tally.verdicts} verdicts, ${tally.errors} errors (254; ${tally.invalidUtf8} on bytes that are not UTF-8, all refused); heap ${Math.round(heapBefore)} MB before, peak ${Math.round(tally.heapPeakMb)} MB`,
    );
    // Bounded memory: with an 8 MiB history limit nothing a run reads can hold more than a few times that.
    expect(tally.heapPeakMb - heapBefore).toBeLessThan(256);
  });
});
