/**
 * readOperations + checkOperations (what `fencecheck check FILE` runs: the
 * history paired as it is read, never held whole) must decide exactly as
 * check() on the whole history does: same verdict, same witness. On the public
 * corpus (skipped when absent) and on seeded generated long histories.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeLongHistory } from '../../bench/long-history.js';
import { check, checkOperations } from '../../core/checkers/linearizability/check.js';
import type { LinearizabilityResult } from '../../core/checkers/linearizability/result.js';
import { createModel } from '../../core/checkers/models/registry.js';
import { corpusDir, readManifest } from '../../src/corpus/manifest.js';
import { readOperations } from '../../src/check/read-operations.js';
import { readHistory } from '../../src/history/read-history.js';
import { testSeed } from '../support/seed.js';
import { madeTempDir } from '../support/temp-dirs.js';

const manifest = readManifest();
if (!manifest) console.warn(`read-operations: corpus part skipped, no corpus at ${corpusDir()}`);

function decision(r: LinearizabilityResult): unknown {
  return {
    valid: r.valid,
    witness: r.witness && {
      partition: r.witness.partition,
      prefix: r.witness.prefix.map((o) => o.id),
      op: r.witness.op.id,
      reason: r.witness.reason,
      state: r.witness.state,
    },
  };
}

describe.skipIf(!manifest)('streamed pairing decides the corpus as check() does', () => {
  it.each(manifest ?? [])('$file', async (entry) => {
    const model = createModel(entry.model);
    const whole = check(model, await readHistory(entry.path, { format: entry.format }), { timeoutMs: 30_000 });
    const streamed = checkOperations(model, readOperations(entry.path, model, { format: entry.format }).operations, { timeoutMs: 30_000 });
    expect(decision(streamed)).toEqual(decision(whole));
    expect(streamed.stats.operations).toBe(whole.stats.operations);
  });
});

describe('generated long histories', () => {
  // Made when this block's tests run (a filter, -t, that skips them all would skip a removal hook too).
  let dir = '';
  beforeAll(() => (dir = madeTempDir('fencecheck-long-')));
  const seed = testSeed('read-operations long histories', 'test/check/read-operations.test.ts');

  it.each([
    { format: 'porcupine-etcd' as const, invalid: false },
    { format: 'porcupine-etcd' as const, invalid: true },
    { format: 'jsonl' as const, invalid: false },
    { format: 'jsonl' as const, invalid: true },
  ])('$format, invalid: $invalid, gets its verdict by both paths', async ({ format, invalid }) => {
    const file = join(dir, `h-${format}-${invalid}`);
    writeLongHistory(file, { ops: 3000, seed, format, invalid });
    const model = createModel('etcd');
    const whole = check(model, await readHistory(file, { format }));
    const streamed = checkOperations(model, readOperations(file, model, { format }).operations);
    expect(whole.valid).toBe(!invalid);
    expect(decision(streamed)).toEqual(decision(whole));
  });
});
