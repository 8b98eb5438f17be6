/**
 * Temporary directories for tests, removed after the test file that made them
 * (tests clean up like runs do: `npm test` used to leave ~45 directories
 * under the system temp dir on every run). The afterAll hook is registered
 * when a test file first imports this module, so it belongs to that file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh `<system temp dir>/<prefix>XXXXXX`, removed after this test file. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
