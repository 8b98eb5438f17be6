/**
 * A compare directory's manifest.json as a type, with its format tag: its own
 * file, so that the validator (validate-manifest.ts) and the manifest's reader
 * and writer (manifest.ts), which calls it, do not import each other.
 */
import type { Validity } from '../../core/run-files/results-json.js';
import type { CompareSpec } from './compare-spec.js';
import type { Shard } from './shard.js';

export const MANIFEST_FORMAT = 'fencecheck-compare/1';

export interface ManifestRun {
  id: string;
  cellId: string;
  seed: number;
  /** Its index in the whole run list. */
  index: number;
  /** `done`: runLockTest returned (whatever the verdict); `error`: the tool failed. */
  status: 'done' | 'error';
  valid: Validity | null;
  /** The run directory, relative to the compare directory (null when the run failed before making one). */
  runDir: string | null;
  /** The run's harness log, relative to the compare directory. */
  log: string;
  durationMs: number;
  finishedAt: string;
  error: string | null;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  createdAt: string;
  spec: CompareSpec;
  shard: Shard | null;
  runs: ManifestRun[];
}
