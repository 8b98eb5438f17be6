/**
 * `fencecheck check RUN_DIR` on a queue run: a run the project recorded itself
 * (test/fixtures/runs/recorded-queue-bullmq: BullMQ on real Redis, three
 * workers, two stalls of 4 s past a 1.5 s lock, `--resource none`, seed 7)
 * judged again from its history gives the verdict the run gave (two jobs done
 * twice: unsafe, exit 1); a history changed after the run is judged as it is
 * now (an effect record removed: one duplicate fewer; no final read: never
 * valid); a test.json whose facts do not fit a queue run is a 254 naming the
 * field, never a verdict.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkQueueRunDir } from '../../src/check/check-queue-run-dir.js';
import { readQueueRun } from '../../runtime/store/read-run-files.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { EXIT } from '../../core/errors.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { runCli } from '../cli/run-cli.js';

const RECORDED = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runs', 'recorded-queue-bullmq');

function copy(): string {
  const dir = join(madeTempDir('fc-queue-check-'), 'run');
  cpSync(RECORDED, dir, { recursive: true });
  return dir;
}

const recorded = JSON.parse(readFileSync(join(RECORDED, 'results.json'), 'utf8')) as { outcome: string; checkers: { checker: string; summary: string }[] };

describe('check RUN_DIR on a queue run', () => {
  it('judges the recorded history again and gives the verdict the run gave, rewriting results.json', () => {
    const dir = copy();
    writeFileSync(join(dir, 'results.json'), '{}');
    const run = readQueueRun(dir)!;
    expect(run.test).toMatchObject({ workload: 'queue', backend: 'redis', client: 'bullmq', resource: 'none', seed: 7 });
    const { results } = checkQueueRunDir(dir, run);
    expect(results.outcome).toBe(recorded.outcome);
    expect(results.outcome).toBe('unsafe');
    expect(results.checkers.map((c) => c.summary)).toEqual(recorded.checkers.map((c) => c.summary));
    expect(results.checkers[0]!.stats!['duplicated']).toBe(2);
    expect(results.evidence.faults.applied).toBe(run.plannedWindows);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).outcome).toBe('unsafe');
  });

  it('judges a history changed after the run as it is now: a done record removed is one duplicate fewer; no final read is never valid', () => {
    const dir = copy();
    const path = join(dir, 'history.jsonl');
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const finalAt = lines.findIndex((l) => JSON.parse(l).f === 'final-read' && JSON.parse(l).type === 'ok');
    const final = JSON.parse(lines[finalAt]!);
    const dup = recorded.checkers[0]!.summary;
    expect(dup).toMatch(/^2 of /);
    // Remove the first done record of a duplicated job: that job is now done once.
    const counts = new Map<number, number>();
    for (const d of final.value.done) counts.set(d.job, (counts.get(d.job) ?? 0) + 1);
    const twice = [...counts].find(([, n]) => n === 2)![0];
    final.value.done.splice(
      final.value.done.findIndex((d: { job: number }) => d.job === twice),
      1,
    );
    final.value.counter -= 1;
    lines[finalAt] = JSON.stringify(final);
    writeFileSync(path, lines.join('\n') + '\n');
    expect(checkQueueRunDir(dir, readQueueRun(dir)!).results.checkers[0]!.stats!['duplicated']).toBe(1);
    writeFileSync(path, lines.filter((_, i) => i !== finalAt && i !== finalAt - 1).join('\n') + '\n');
    const noFinal = checkQueueRunDir(dir, readQueueRun(dir)!).results;
    expect(noFinal.valid).not.toBe(true);
    expect(noFinal.outcome).not.toBe('safe');
  });

  it('refuses a test.json whose facts do not fit a queue run (254, the field named), and a lock reader still says what the directory is', () => {
    for (const [field, value] of [
      ['nemesis', ['partition']],
      ['resource', 'fence'],
      ['backend', 'etcd'],
      ['seed', 1.5],
    ] as const) {
      const dir = copy();
      const test = JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8'));
      test[field] = value;
      writeFileSync(join(dir, 'test.json'), JSON.stringify(test));
      const err = (() => {
        try {
          readQueueRun(dir);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err, field).toBeInstanceOf(RunFileError);
      expect((err as RunFileError).exitCode).toBe(EXIT.badInput);
      expect((err as RunFileError).message).toContain(field);
    }
    const asLock = (() => {
      try {
        readTestJson(copy());
      } catch (e) {
        return e as RunFileError;
      }
      return undefined;
    })();
    expect(asLock?.message).toMatch(/queue run's test\.json/);
    expect(asLock?.hint).toMatch(/fencecheck check RUN_DIR/);
  });

  it('as a user runs it: `fencecheck check RUN_DIR` prints the verdict and exits 1 (the built CLI)', () => {
    const r = runCli(['check', copy()]);
    expect(r.code).toBe(EXIT.invalid);
    expect(r.stdout).toMatch(/total-queue: INVALID: 2 of \d+ jobs done twice or more/);
    expect(r.stdout).toMatch(/outcome: unsafe/);
  });
});
