/**
 * The public corpus of histories with known verdicts (`../shared/data`,
 * beside the project): its MANIFEST.tsv, read for tests and benchmarks. The
 * corpus is never copied into the repository; callers skip when it is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ModelName } from '../../core/checkers/models/registry.js';
import type { HistoryFormat } from '../history/read-history.js';
import { projectRoot } from '../../runtime/hosts/paths.js';

export interface CorpusEntry {
  /** Path relative to the corpus root, as in the manifest. */
  file: string;
  /** Absolute path. */
  path: string;
  format: HistoryFormat;
  model: ModelName;
  expected: 'valid' | 'invalid';
  /** etcd, kv or mutex. */
  family: string;
}

/** Manifest formats to our importers. */
const FORMATS: Record<string, HistoryFormat> = {
  'jepsen-etcd-log': 'porcupine-etcd',
  'porcupine-kv': 'porcupine-kv',
  'jepsen-edn': 'edn',
};

/** The corpus folder: $FENCECHECK_DATA, else ../shared/data from the project root. */
export function corpusDir(): string {
  if (process.env.FENCECHECK_DATA) return resolve(process.env.FENCECHECK_DATA);
  // The project's package.json, not the nearest one: the bundle's folders have their own (bin.ts).
  return resolve(projectRoot(), '..', 'shared', 'data');
}

/** The manifest's entries, or undefined when the corpus is not there. */
export function readManifest(dir: string = corpusDir()): CorpusEntry[] | undefined {
  const manifest = join(dir, 'MANIFEST.tsv');
  if (!existsSync(manifest)) return undefined;
  const lines = readFileSync(manifest, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '');
  return lines.map((line) => {
    const [file, format, model, expected] = line.split('\t') as [string, string, string, string];
    const family = model.startsWith('mutex') ? 'mutex' : model.startsWith('kv') ? 'kv' : 'etcd';
    return {
      file,
      path: join(dir, file),
      format: FORMATS[format] ?? 'edn',
      // The manifest names the semantics in words; our model of each family:
      model: family === 'mutex' ? 'mutex' : family === 'kv' ? 'kv' : 'etcd',
      expected: expected.trim() === 'valid' ? 'valid' : 'invalid',
      family,
    };
  });
}
