/**
 * The shrink of a hunt's find goes on from the hunt's re-runs (src/shrink/hunt-confirmation.ts): read from the
 * hunt.json two levels above the try's run (HUNT/try-NNN/STAMP, the layout real hunts write), only for the try
 * that names this run, only with counts that make sense, never through a link out of the hunt's directory.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { madeTempDir } from '../support/temp-dirs.js';
import { confirmationOf, huntConfirmationOf } from '../../src/shrink/hunt-confirmation.js';

/** A hunt directory with one try's run, and its hunt.json holding `tries`. */
function huntWith(tries: (runDir: string) => unknown[]): { huntDir: string; runDir: string } {
  const huntDir = join(madeTempDir('fc-hunt-confirm-'), 'hunt', 'redis-none-20261207T070000');
  const runDir = join(huntDir, 'try-003', '20261207T070012');
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(huntDir, 'hunt.json'), JSON.stringify({ seed: 1, tries: tries(runDir) }));
  return { huntDir, runDir };
}

const logged = (): { lines: string[]; log: (l: string) => void } => {
  const lines: string[] = [];
  return { lines, log: (l) => void lines.push(l) };
};

describe("a hunt's re-runs of the try a shrink starts from", () => {
  it("are read from the hunt's file for the try that names the run, however the run's path is written", () => {
    const { huntDir, runDir } = huntWith((runDir) => [
      { index: 0, runDir: join(runDir, '..', '..', 'try-001', 'x'), reproduced: { fails: 0, of: 2, failingRun: null } },
      { index: 2, runDir, reproduced: { fails: 4, of: 5, failingRun: `${runDir}-confirm-1`, errors: 0 } },
    ]);
    const { lines, log } = logged();
    const found = huntConfirmationOf(runDir, log);
    expect(found).toEqual({ runs: { fails: 4, of: 5, failingRun: `${runDir}-confirm-1` }, from: join(huntDir, 'hunt.json') });
    expect(lines).toEqual([]);
    // Relative to the working directory, and through a link to the run: the same try.
    expect(huntConfirmationOf(relative(process.cwd(), runDir), log)?.runs.fails).toBe(4);
    const link = join(madeTempDir('fc-hunt-confirm-link-'), 'run');
    symlinkSync(runDir, link);
    expect(huntConfirmationOf(link, log)?.runs.of).toBe(5);
    expect(huntConfirmationOf(join(runDir, '..', '20261207T070012'), log)?.runs.of).toBe(5);
  });

  it('are none for a run no try names, a try never re-run, or a run outside any hunt', () => {
    const { runDir } = huntWith((runDir) => [
      { index: 0, runDir: `${runDir}-other`, reproduced: { fails: 4, of: 4, failingRun: 'x' } },
      { index: 1, runDir: join(runDir, '..', 'other') },
    ]);
    const { lines, log } = logged();
    expect(huntConfirmationOf(runDir, log)).toBeNull();
    const plain = join(madeTempDir('fc-run-'), 'results', 'run', '20261207T070000');
    mkdirSync(plain, { recursive: true });
    expect(huntConfirmationOf(plain, log)).toBeNull();
    // Silent: nothing was there to be read.
    expect(lines).toEqual([]);
  });

  it('are none, saying why, when the counts make no sense or the file is not JSON', () => {
    for (const reproduced of [
      { fails: 5, of: 4, failingRun: 'x' },
      { fails: 2, of: 4, failingRun: null },
      { fails: -1, of: 4 },
      { fails: 1.5, of: 4, failingRun: 'x' },
      'four',
    ]) {
      const { runDir } = huntWith((runDir) => [{ index: 0, runDir, reproduced }]);
      const { lines, log } = logged();
      expect(huntConfirmationOf(runDir, log), JSON.stringify(reproduced)).toBeNull();
      expect(lines.join('\n')).toMatch(/do not read as counts .*: the original plan is re-run$/);
    }
    const { huntDir, runDir } = huntWith(() => []);
    writeFileSync(join(huntDir, 'hunt.json'), '{"tries": [');
    const { lines, log } = logged();
    expect(huntConfirmationOf(runDir, log)).toBeNull();
    expect(lines.join('\n')).toMatch(/hunt\.json is not JSON .*: the original plan is re-run$/);
  });

  it("are not read through a hunt.json linked out of the hunt's directory", () => {
    const outside = join(madeTempDir('fc-outside-'), 'hunt.json');
    const { huntDir, runDir } = huntWith(() => []);
    writeFileSync(outside, JSON.stringify({ tries: [{ index: 0, runDir, reproduced: { fails: 4, of: 4, failingRun: runDir } }] }));
    const file = join(huntDir, 'hunt.json');
    // Replace the file with a link to one outside: the rule of confined-path.ts, as for every run file.
    rmSync(file);
    symlinkSync(outside, file);
    const { lines, log } = logged();
    expect(huntConfirmationOf(runDir, log)).toBeNull();
    expect(lines.join('\n')).toMatch(/not read .*: the original plan is re-run$/);
  });

  it('read counts as hunt.json records them, and nothing else', () => {
    expect(confirmationOf({ fails: 0, of: 0, failingRun: null })).toEqual({ fails: 0, of: 0, failingRun: null });
    expect(confirmationOf({ fails: 3, of: 5, failingRun: '/r', errors: 1 })).toEqual({ fails: 3, of: 5, failingRun: '/r' });
    expect(confirmationOf({ fails: 3, of: 5, failingRun: 7 })).toBeNull();
    expect(confirmationOf([4, 5])).toBeNull();
    expect(confirmationOf(null)).toBeNull();
  });
});
