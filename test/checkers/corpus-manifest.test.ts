/**
 * Every history of the public corpus (../shared/data/MANIFEST.tsv) gets the
 * verdict its source project asserts, with the model of its family. Skipped,
 * with a note, when the corpus is not beside the project.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../core/checkers/linearizability/check.js';
import { createModel } from '../../core/checkers/models/registry.js';
import { corpusDir, readManifest } from '../../src/corpus/manifest.js';
import { readHistory } from '../../src/history/read-history.js';

const manifest = readManifest();
if (!manifest) console.warn(`corpus-manifest: skipped, no corpus at ${corpusDir()} (set FENCECHECK_DATA to its folder)`);

describe.skipIf(!manifest)('the public corpus gets its known verdicts', () => {
  it('lists the 109 histories the README promises', () => {
    expect(manifest!.length).toBe(109);
  });

  it.each(manifest ?? [])('$file is $expected ($model)', async (entry) => {
    const history = await readHistory(entry.path, { format: entry.format });
    // A generous deadline: a slow CI machine must not turn a verdict into 'unknown'.
    const result = check(createModel(entry.model), history, { timeoutMs: 30_000 });
    expect(result.valid).toBe(entry.expected === 'valid');
    if (result.valid === false) {
      // The witness names an op that is not in its own prefix, and a reason.
      expect(result.witness).toBeDefined();
      expect(result.witness!.prefix.map((o) => o.id)).not.toContain(result.witness!.op.id);
      expect(result.witness!.reason.length).toBeGreaterThan(0);
    }
  });

  it.each((manifest ?? []).filter((e) => e.family === 'kv' && e.file.includes('c10')))(
    '$file has the same verdict with one state for all keys (--no-partition)',
    async (entry) => {
      const history = await readHistory(entry.path, { format: entry.format });
      const result = check(createModel('kv', { partition: false }), history, { timeoutMs: 60_000 });
      expect(result.valid).toBe(entry.expected === 'valid');
    },
  );
});
