/**
 * The public corpus (../shared/data, see its README and MANIFEST.tsv) must
 * import and validate, every file. Skipped, with a note, where it is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir } from '../../src/corpus/manifest.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import { detectFormat, readHistory, type HistoryFormat } from '../../src/history/read-history.js';

// The same folder every corpus test reads: FENCECHECK_DATA, else ../shared/data beside the project root.
const DATA = corpusDir();
const present = existsSync(join(DATA, 'MANIFEST.tsv'));
if (!present)
  console.warn(`[corpus] skipped: the public corpus is not at ${DATA} (set FENCECHECK_DATA to its folder; default ../shared/data beside the project root)`);

// MANIFEST.tsv's format column, in our format names.
const FORMATS: { [manifest: string]: HistoryFormat } = {
  'jepsen-etcd-log': 'porcupine-etcd',
  'porcupine-kv': 'porcupine-kv',
  'jepsen-edn': 'edn',
};

const rows = present
  ? readFileSync(join(DATA, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .map(([file, format]) => ({ file: file as string, format: format as string }))
  : [];

describe.skipIf(!present)('public corpus', () => {
  it('lists the 109 files the README describes', () => {
    expect(rows).toHaveLength(109);
  });

  it.each(rows)('$file imports and validates', async ({ file, format }) => {
    const path = join(DATA, file);
    const expected = FORMATS[format];
    expect(expected).toBeDefined();
    expect(detectFormat(path, readFileSync(path, 'utf8').slice(0, 4096))).toBe(expected);
    const warnings: HistoryWarning[] = [];
    const history = await readHistory(path, { onWarning: (w) => warnings.push(w) });
    expect(history.length).toBeGreaterThan(0);
    // Only Knossos' history has warnings: six time inversions between workers.
    expect(warnings.map((w) => w.kind)).toEqual(file.startsWith('knossos/') ? Array(6).fill('time-decreased') : []);
  });
});
