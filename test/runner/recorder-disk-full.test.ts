/**
 * A full disk during a run: the recorder keeps every op in memory, does not
 * throw into the worker that recorded it, reports the failure once, and the
 * history file keeps only whole lines (everything written before). Real
 * errors, no root: /dev/full answers every write with ENOSPC, and a lowered
 * file-size limit (RLIMIT_FSIZE, soft limit only) makes a write stop half-way
 * and then fail with EFBIG, as a nearly full disk does. A machine without
 * /dev/full or prlimit(1) skips the test that needs it, and says why: on
 * stderr (the default reporter lists no skipped test) and as the skip's note.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { FencecheckError } from '../../core/errors.js';
import { Recorder } from '../../runtime/runner/recorder.js';

const dir = madeTempDir('fencecheck-recorder-');

/** Skip the running test when `missing`, saying why where every reporter shows it. */
function skipUnless(ctx: TestContext, missing: boolean, why: string): void {
  if (!missing) return;
  console.warn(`[recorder-disk-full] skipped "${ctx.task.name}": ${why}`);
  ctx.skip(why);
}

function recordMany(recorder: Recorder, n: number): void {
  for (let i = 0; i < n; i++) recorder.record(i % 5, i % 2 === 0 ? 'invoke' : 'ok', 'acquire', { token: i, note: 'x'.repeat(40) });
}

describe('Recorder on a full disk', () => {
  it('keeps recording in memory, does not throw, and reports ENOSPC once', (ctx) => {
    skipUnless(ctx, !existsSync('/dev/full'), 'this machine has no /dev/full, the device that answers every write with ENOSPC');
    const recorder = new Recorder('/dev/full');
    const failures: Error[] = [];
    recorder.onFailure((e) => failures.push(e));
    expect(() => recordMany(recorder, 10)).not.toThrow();
    expect(recorder.ops).toHaveLength(10);
    expect(failures).toHaveLength(1);
    expect(recorder.failure).toBeInstanceOf(FencecheckError);
    expect((recorder.failure as FencecheckError).code).toBe('disk-full');
    expect((recorder.failure as FencecheckError).exitCode).toBe(254);
    expect(recorder.failure?.message).toMatch(/ENOSPC \(no space left for it\)\. The history keeps the 0 op\(s\)/);
    recorder.close();
  });

  it('cuts a half-written line back off: the file ends with the last whole op', (ctx) => {
    skipUnless(
      ctx,
      spawnSync('prlimit', ['--version']).status !== 0,
      'prlimit(1) (util-linux) is not installed: nothing here can lower the file-size limit that makes a write stop half-way',
    );
    const path = join(dir, 'history.jsonl');
    const recorder = new Recorder(path);
    const limit = 2000;
    // Lower this process's soft limit only (no privilege needed), and always restore it.
    const set = (soft: string) => spawnSync('prlimit', ['--pid', String(process.pid), `--fsize=${soft}:unlimited`]).status === 0;
    expect(set(String(limit))).toBe(true);
    try {
      recordMany(recorder, 40);
    } finally {
      expect(set('unlimited')).toBe(true);
    }
    expect(recorder.ops).toHaveLength(40);
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').slice(0, -1);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(limit);
    // Every line is a whole op, in order, and the ones that fitted are all there.
    expect(lines.map((l) => (JSON.parse(l) as { index: number }).index)).toEqual(lines.map((_, i) => i));
    expect(lines.length).toBeGreaterThan(5);
    expect(recorder.failure?.message).toContain(`EFBIG (no space left for it). The history keeps the ${lines.length} op(s)`);
    recorder.close();
  });
});
