/** Test helpers: a copy of a run directory in a fresh temporary directory, so tests never write into fixtures. */
import { cpSync } from 'node:fs';
import { madeTempDir } from '../support/temp-dirs.js';
import { join } from 'node:path';
import { SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';

export function tempDir(prefix = 'fencecheck-report-'): string {
  return madeTempDir(prefix);
}

/** A sample run (the counter run by default) copied to `<temp>/<name>`; returns its path. */
export function copySampleRun(parent = tempDir(), name = 'sample-run', source = SAMPLE_RUN_DIR): string {
  const dir = join(parent, name);
  cpSync(source, dir, { recursive: true });
  return dir;
}
