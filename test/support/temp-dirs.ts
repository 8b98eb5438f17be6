/**
 * madeTempDir: a fresh directory under the system's temp dir that is removed
 * when the test that made it finishes, or, when made while the tests are
 * being collected (a table of cases), after the file's tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

export function madeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test: during collection, afterAll registers for the file.
    afterAll(remove);
  }
  return dir;
}
