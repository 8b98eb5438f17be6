/**
 * `manifest.json` of a compare directory: the comparison's spec (the whole
 * matrix, whichever shard this directory runs), the shard, and one entry per
 * run that ended. It is rewritten atomically after every run, so a comparison
 * killed at any moment resumes from it: runs with status `done` are skipped,
 * runs that ended in a tool error are tried again, runs never recorded (the
 * one that was going when the machine stopped) start over.
 *
 * Paths are relative to the compare directory, so the directory can be moved,
 * uploaded as a CI artifact and merged elsewhere.
 */
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import { join } from 'node:path';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { BoundedReadError, readBoundedFile } from '../../runtime/store/read-bounded-file.js';
import { jsonTextProblem } from '../../core/history/json-text-checks.js';
import { MAX_DEPTH } from '../../core/history/read-limits.js';
import type { CompareSpec } from './compare-spec.js';
import type { Shard } from './shard.js';
import { asManifest, manifestProblem } from './validate-manifest.js';
import { MANIFEST_FORMAT, type Manifest, type ManifestRun } from './manifest-types.js';
import { parseStrictJson } from '../../core/history/strict-json.js';

export const MANIFEST_FILE = 'manifest.json';

export { MANIFEST_FORMAT, type Manifest, type ManifestRun };

export function newManifest(spec: CompareSpec, shard: Shard | null, createdAt: string): Manifest {
  return { format: MANIFEST_FORMAT, createdAt, spec, shard, runs: [] };
}

/** The manifest with `run` added, replacing an earlier entry of the same run. */
export function recordRun(manifest: Manifest, run: ManifestRun): Manifest {
  return { ...manifest, runs: [...manifest.runs.filter((r) => r.id !== run.id), run] };
}

/** Ids of the runs a resume skips. */
export function finishedRunIds(manifest: Manifest): Set<string> {
  return new Set(manifest.runs.filter((r) => r.status === 'done').map((r) => r.id));
}

/** The manifest of a compare directory, or null when it has none. A FIFO, a device or a file past the bound is refused (254). */
export function readManifest(dir: string): Manifest | null {
  const path = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = readBoundedFile(path);
  } catch (err) {
    if (err instanceof BoundedReadError && err.code === 'ENOENT') return null;
    if (err instanceof BoundedReadError && err.code !== 'io') throw manifestError(path, err.why, err);
    throw new FencecheckError('io', `cannot read ${path}: ${(err as Error).message}`, { cause: err, hint: "Check the file's permissions." });
  }
  let json: unknown;
  try {
    json = parseStrictJson(text);
  } catch (err) {
    throw manifestError(path, `expected JSON, found a syntax error (${(err as Error).message})`, err);
  }
  const deep = jsonTextProblem(text, MAX_DEPTH, { numbers: false });
  if (deep !== null) throw manifestError(path, `expected ${deep.expected}, found ${deep.found} at character ${deep.offset + 1}`);
  const problem = manifestProblem(json, MANIFEST_FORMAT);
  if (problem !== null) throw manifestError(path, problem);
  return asManifest(json);
}

/** Through the store's atomic writer: a kill or a crash leaves the old manifest or the new one, never half of one. */
export function writeManifest(dir: string, manifest: Manifest): void {
  writeFileAtomic(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
}

function manifestError(path: string, detail: string, cause?: unknown): FencecheckError {
  return new FencecheckError('manifest', `${path}: ${detail}`, {
    hint: 'The compare directory was not written by `fencecheck compare`, or its manifest was edited; start a new comparison with another --out.',
    exitCode: EXIT.badInput,
    cause,
  });
}
