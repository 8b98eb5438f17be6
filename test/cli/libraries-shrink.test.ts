/**
 * npm run libraries' shrinks on paper: which runs a part shrinks (the first invalid run of its first n
 * unsafe cells, few re-runs, into the part's own folder), and what the document reads back from a
 * shrink's shrink.json (its summary line and replay), the newest shrink of each cell; a shrink
 * with no shrink.json (it did not reproduce) gives nothing.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_REPRODUCED, readShrinks, recordShrink, SHRINK_ARGS, shrinkTargets } from '../../src/cli/libraries-shrink.js';

let dir = '';

const cell = (id: string, outcome: string, runs: { status: string; runDir: string | null }[]) => ({ id, outcome, runs });

describe('libraries shrinks', () => {
  it('shrinks the first invalid run of the first n unsafe cells, into the part folder', () => {
    dir = madeTempDir('fc-libshrink-');
    const cells = [
      cell('a@redis/none/client-pause', 'unsafe', [
        { status: 'valid', runDir: 'runs/a-1' },
        { status: 'invalid', runDir: 'runs/a-2' },
      ]),
      cell('a@redis/cas-unique/client-pause', 'safe', [{ status: 'valid', runDir: 'runs/b-1' }]),
      cell('b@redis/none/kill', 'unsafe', [{ status: 'invalid', runDir: 'runs/c-1' }]),
    ];
    writeFileSync(join(dir, 'compare.json'), JSON.stringify({ cells }));
    expect(shrinkTargets(dir, 1)).toEqual([
      {
        cell: 'a@redis/none/client-pause',
        dir: join(dir, 'shrinks', '1'),
        args: ['shrink', join(dir, 'runs/a-2'), ...SHRINK_ARGS, '--results', join(dir, 'shrinks', '1')],
      },
    ]);
    expect(shrinkTargets(dir, 5).map((t) => t.cell)).toEqual(['a@redis/none/client-pause', 'b@redis/none/kill']);
    expect(shrinkTargets(dir, 0)).toEqual([]);
  });

  it('reads back the newest shrink of each cell, and nothing from a shrink that wrote no shrink.json', () => {
    dir = madeTempDir('fc-libshrink-');
    const one = join(dir, 'shrinks', '1');
    recordShrink(one, 'a@redis/none/client-pause', 150_000);
    for (const [stamp, clients] of [
      ['20261201T120000', 3],
      ['20261201T130000', 2],
    ] as const) {
      mkdirSync(join(one, 'shrink', stamp), { recursive: true });
      const shrunk = { script: [{ kind: 'client-pause' }], clients, timeLimitS: 5, rate: 2 };
      writeFileSync(
        join(one, 'shrink', stamp, 'shrink.json'),
        JSON.stringify({ shrunk, reproduced: { fails: 2, of: 2 }, replay: `fencecheck run --clients ${clients}` }),
      );
    }
    recordShrink(join(dir, 'shrinks', '2'), 'b@redis/none/kill', 60_000);
    expect(readShrinks(dir)).toEqual([
      {
        cell: 'a@redis/none/client-pause',
        line: 'shrunk to 1 fault event, 2 clients, 5 s; reproduced 2/2 (95% CI 34–100%)',
        replay: 'fencecheck run --clients 2',
        durationMs: 150_000,
      },
    ]);
  });

  it('reads back a shrink whose run did not fail again as its answer, with no replay of its own', () => {
    dir = madeTempDir('fc-libshrink-');
    recordShrink(join(dir, 'shrinks', '1'), 'a@redis/fence-claim/kill', 40_000, NOT_REPRODUCED);
    expect(readShrinks(dir)).toEqual([{ cell: 'a@redis/fence-claim/kill', line: NOT_REPRODUCED, durationMs: 40_000 }]);
    expect(NOT_REPRODUCED).toMatch(/^not shrunk: .*\(2 of 2 needed\)/);
  });
});
