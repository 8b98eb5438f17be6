/**
 * madeTempDir: a fresh directory under the system's temp dir that is removed
 * when the test that made it finishes, and in any case after the file's tests
 * (a directory made during collection or in a beforeAll hook, where a hook
 * registered at that moment would never run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

const made: string[] = [];
// Registered when a test file first imports this module, i.e. during its collection: it runs after the file.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function madeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    // Not inside a test: the file's afterAll above removes it.
  }
  return dir;
}
