/**
 * `fencecheck check RUN_DIR` and `fencecheck report RUN_DIR` on run
 * directories: a bad test.json or results.json is exit 254 naming the file and
 * the field; a good one is re-checked and gets its outcome and evidence.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';
import { runCli } from './run-cli.js';

const parent = mkdtempSync(join(tmpdir(), 'fencecheck-cli-rundir-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function sampleCopy(name: string): string {
  const dir = join(parent, name);
  cpSync(SAMPLE_RUN_DIR, dir, { recursive: true });
  return dir;
}

describe('fencecheck check RUN_DIR', () => {
  it('a test.json of {} exits 254 naming the file and the missing field', () => {
    const dir = sampleCopy('empty-test');
    writeFileSync(join(dir, 'test.json'), '{}\n');
    for (const command of ['check', 'report']) {
      const r = runCli([command, dir]);
      expect(r.code).toBe(254);
      expect(r.stderr).toContain(`${join(dir, 'test.json')}: expected \`name\` to be the name of the test, found nothing (the field is missing)`);
    }
  });

  it('a results.json with a wrong type exits 254 from report naming the field', () => {
    const dir = sampleCopy('bad-results');
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ valid: true, checkers: 'all fine' }));
    const r = runCli(['report', dir]);
    expect(r.code).toBe(254);
    expect(r.stderr).toContain(`${join(dir, 'results.json')}: expected \`checkers\` to be an array, found "all fine"`);
  });

  it('re-checks the run and writes its outcome and evidence', () => {
    const dir = sampleCopy('recheck');
    const r = runCli(['check', dir]);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    // The sample run lost an update under paused holders: unsafe, and its pauses struck.
    expect(r.code).toBe(1);
    expect(results.outcome).toBe('unsafe');
    expect(r.stdout).toMatch(/^outcome: UNSAFE; (\d+) of \1 fault windows struck \(100%\); [1-9]\d* double hold\(s\), [1-9]\d* refusal\(s\)$/m);
    expect(results.deciding).toEqual(['lost-updates', 'stale-writes', 'interleaved-sections', 'grant-tokens', 'access-stats']);
  });
});
