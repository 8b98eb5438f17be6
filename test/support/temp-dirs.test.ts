/**
 * madeTempDir leaves nothing behind when the worker is interrupted: a vitest of its own runs a fixture that makes
 * a directory at collection and SIGTERMs its own worker mid-test (vitest runs no hook then); the directory is gone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';

it('a directory made at collection is removed when the worker is interrupted', () => {
  const report = join(mkdtempSync(join(tmpdir(), 'fc-temp-report-')), 'dir');
  try {
    const fixtures = join(projectRoot(), 'test', 'fixtures', 'temp-dirs');
    const r = spawnSync(process.execPath, [join(projectRoot(), 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', fixtures], {
      env: { ...process.env, FC_TEMP_DIR_REPORT: report },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(existsSync(report), r.stdout + r.stderr).toBe(true);
    const dir = readFileSync(report, 'utf8');
    expect(dir).toMatch(/fc-interrupted-/);
    expect(existsSync(dir), `${dir} left behind`).toBe(false);
  } finally {
    rmSync(join(report, '..'), { recursive: true, force: true });
  }
}, 60_000);
