/**
 * docs/libraries.md as rendered from a merged comparison over --lock-clients rows: the one table
 * (library × resource over every fault column: unsafe wins, then unknown, then safe with the weight
 * of its tested runs, untested never safe and saying why), each library's own table, findings built
 * from the numbers, one replay per invalid cell, each part's facts and cost quoted.
 */
import { describe, expect, it } from 'vitest';
import { buildCompareReport, type MatrixInput } from '../../src/compare/compare-report.js';
import { rowOfLabel } from '../../src/compare/compare-spec.js';
import { LIBRARIES } from '../../src/compare/libraries-matrix.js';
import { mostAtOnce, renderLibrariesMd } from '../../src/compare/render-libraries-md.js';
import type { CompareReport } from '../../src/compare/compare-report.js';
import { Prng } from '../../core/random/prng.js';
import type { RunSummary } from '../../src/compare/run-summary.js';

function run(cellId: string, seed: number, over: Partial<RunSummary>): RunSummary {
  return {
    id: `${cellId}#${seed}`,
    cellId,
    seed,
    dir: `/out/runs/${cellId.replace(/\//g, '-')}-${seed}`,
    log: null,
    hasReport: true,
    status: 'valid',
    durationMs: 30_000,
    outcome: 'safe',
    untestedWhy: null,
    evidence: { faults: { planned: 2, applied: 2, skipped: [], failed: [] }, protection: { doubleHolds: 1, refusals: 3 } },
    anomalies: {},
    informational: {},
    failing: [],
    writes: { accepted: 10, rejected: 3, unknown: 0 },
    useless: false,
    replay: `fencecheck run --seed ${seed}`,
    startedAt: null,
    error: null,
    ...over,
  };
}

const SRM = 'simple-redis-mutex@redis';
const ETCD = 'etcd3-lock@etcd';
const PGA = 'pg-advisory';
const NEVER = {
  outcome: 'untested' as const,
  untestedWhy: 'the lock never failed: no double hold and no refusal',
  evidence: { faults: { planned: 2, applied: 2, skipped: [], failed: [] }, protection: { doubleHolds: 0, refusals: 0 } },
};
const input: MatrixInput = {
  backends: [rowOfLabel(SRM), rowOfLabel(ETCD), rowOfLabel(PGA)],
  resources: ['none', 'fence-claim', 'cas-unique'],
  nemeses: ['client-pause', 'partition'],
  planned: new Map([
    [`${SRM}/none/client-pause`, [1, 2]],
    [`${SRM}/none/partition`, [1]],
    [`${SRM}/fence-claim/client-pause`, [1]],
    [`${SRM}/fence-claim/partition`, [1]],
    [`${SRM}/cas-unique/client-pause`, [1, 2]],
    [`${SRM}/cas-unique/partition`, [1]],
    [`${ETCD}/none/client-pause`, [1]],
    [`${ETCD}/none/partition`, [1]],
    [`${PGA}/none/client-pause`, [1]],
    [`${PGA}/none/partition`, [1]],
  ]),
  runs: [
    run(`${SRM}/none/client-pause`, 1, {
      status: 'invalid',
      outcome: 'unsafe',
      anomalies: { 'lost-update': 4, 'stale-write': 2 },
      replay: 'fencecheck run --backend redis --seed 1 --client x',
    }),
    run(`${SRM}/none/client-pause`, 2, { status: 'valid' }),
    run(`${SRM}/none/partition`, 1, NEVER),
    run(`${SRM}/fence-claim/client-pause`, 1, {}),
    run(`${SRM}/fence-claim/partition`, 1, { status: 'error', outcome: 'error', evidence: null, error: 'the cluster did not start' }),
    run(`${SRM}/cas-unique/client-pause`, 1, {}),
    run(`${SRM}/cas-unique/client-pause`, 2, {
      evidence: { faults: { planned: 2, applied: 2, skipped: [], failed: [] }, protection: { doubleHolds: 4, refusals: 1 } },
    }),
    run(`${SRM}/cas-unique/partition`, 1, NEVER),
    run(`${ETCD}/none/client-pause`, 1, { status: 'invalid', outcome: 'unsafe', anomalies: { 'lost-update': 1 } }),
    run(`${PGA}/none/client-pause`, 1, NEVER),
    run(`${PGA}/none/partition`, 1, NEVER),
  ],
  shards: [],
  description: 'lock-counter, 12 s per run',
  warnings: [],
};
const report = buildCompareReport(input, null, { outDir: '/out', generatedAt: '2026-12-01T12:00:00Z' });
const part = (name: string, durationMs: number) => ({
  name,
  startedAt: '2026-12-01T12:00:00Z',
  durationMs,
  command: `fencecheck compare --backends ${name}`,
  machine: '2 × CPU',
});
const doc = renderLibrariesMd(report, {
  parts: [part('redis', 300_000), part('etcd', 200_000), part('pg-advisory', 100_000)],
  merge: 'fencecheck compare --merge a b c --out m',
  regenerate: 'npm run libraries',
  versions: { redis: '7.0.15' },
  missing: ['zookeeper'],
  root: '/w/fc',
  shrinks: [
    {
      cell: `${SRM}/none/client-pause`,
      line: 'shrunk to 1 fault event, 2 clients, 5 s; reproduced 2/2',
      replay: "fencecheck run --client '/usr/bin/node /w/fc/clients/node/simple-redis-mutex.mjs'",
      durationMs: 150_000,
    },
    { cell: `${SRM}/none/partition`, line: 'not shrunk: its invalid run did not fail again', durationMs: 30_000 },
  ],
});
const rowOf = (client: string, backend: string): string => doc.split('\n').find((l) => l.startsWith(`| [${client}](#${client}-on-${backend}) |`)) ?? '';

describe('docs/libraries.md: the one table', () => {
  it('has a row for every reference client in every language, with its token kind and lease', () => {
    for (const lib of LIBRARIES) expect(doc).toContain(`](#${lib.client}-on-${lib.backend}) | ${lib.language} | ${lib.backend} |`);
    expect(rowOf('simple-redis-mutex', 'redis')).toContain('| Node | redis | monotonic (announced) | TTL, not refreshed |');
  });

  it('makes a cell unsafe when any fault column was, linking its reproduction', () => {
    expect(rowOf('simple-redis-mutex', 'redis')).toContain('| **unsafe** under client-pause ([reproduce](#simple-redis-mutex-on-redis)) |');
    expect(rowOf('etcd3-lock', 'etcd')).toContain('| **unsafe** under client-pause ([reproduce](#etcd3-lock-on-etcd)) | n/a | · |');
  });

  it('weighs a safe cell by its tested runs only (the untested partition run counts for nothing), and says unknown with the error', () => {
    // Two tested runs: 1 - 0.05^(1/2) = 78 %.
    expect(rowOf('simple-redis-mutex', 'redis')).toMatch(/\| safe ⚡5 🛡4: 2 tested runs rule out ≥ 78 % \|$/);
    expect(rowOf('simple-redis-mutex', 'redis')).toContain('| unknown (partition: the cluster did not start) |');
  });

  it('says why a cell is untested, never safe, and gives the reason no fault reaches the danger', () => {
    expect(rowOf('builtin', 'pg-advisory')).toContain('| untested: the lock never failed: no double hold and no refusal ([why](#builtin-on-pg-advisory)) |');
    expect(doc).toMatch(/## builtin on pg-advisory\n[\s\S]*Why untested: a session lock has no lease/);
    expect(doc).toContain('Summary: 5 measured cells: 2 unsafe, 1 safe, 1 untested, 1 unknown; 1 n/a, 51 not run.');
  });
});

describe('docs/libraries.md: facts, sections, findings', () => {
  it('quotes how it was made: each part with its wall time and command, the merge, the versions, what was not run', () => {
    expect(doc).toContain('Generated by `npm run libraries` from real comparisons, one per cluster, merged');
    expect(doc).toContain('- Cost: 10m00s of runs in all');
    expect(doc).toContain('| redis | 2026-12-01T12:00:00Z | 5m00s | 8 | `fencecheck compare --backends redis` |');
    expect(doc).toContain('Merged with `fencecheck compare --merge a b c --out m`.');
    expect(doc).toContain('- Versions: redis 7.0.15.');
    expect(doc).toContain('Not run (yet): zookeeper.');
  });

  it("gives each library its table per fault, the etcd3 lock's fence-claim cells as n/a", () => {
    expect(doc).toContain(
      [
        '| simple-redis-mutex@redis | client-pause | partition |',
        '|---|---|---|',
        '| none | **unsafe 1/2** | untested (2/2 faults struck) |',
        '| fence-claim | safe ⚡1 🛡3 | unknown 1/1 |',
      ].join('\n'),
    );
    expect(doc).toContain(
      ['| etcd3-lock@etcd | client-pause | partition |', '|---|---|---|', '| none | **unsafe 1/1** | incomplete 0/1 |', '| fence-claim | n/a | n/a |'].join(
        '\n',
      ),
    );
  });

  it('states findings from the numbers and one replay per invalid cell; a library not measured says so', () => {
    expect(doc).toContain(
      '- **none × client-pause**: unsafe in 1 of 2 runs (50%): lost-update 4, stale-write 2; faults struck 4/4, 2 double holds, 6 refused accesses.',
    );
    expect(doc).toContain(
      '- **none × partition**: untested, not safe: the lock never failed: no double hold and no refusal (faults struck 2/2, 0 double holds, 0 refused accesses).',
    );
    expect(doc).toContain('- **fence-claim × partition**: unknown in 1 of 1 runs: the cluster did not start.');
    expect(doc).toContain('- simple-redis-mutex@redis/none/client-pause seed 1: `fencecheck run --backend redis --seed 1 --client x`');
    // A shrunk reproduction, under its library, with paths from the project root.
    expect(doc).toContain(
      "- simple-redis-mutex@redis/none/client-pause: shrunk to 1 fault event, 2 clients, 5 s; reproduced 2/2 (2m30s): `fencecheck run --client '/usr/bin/node clients/node/simple-redis-mutex.mjs'`",
    );
    // A run that did not fail again: said so, and no replay of its own (the cell's replay above is the run as it failed).
    expect(doc).toContain('- simple-redis-mutex@redis/none/partition: not shrunk: its invalid run did not fail again (30s)\n');
    expect(doc).toMatch(/## redis-semaphore on redis\n\n.*\n\nToken: .*\n\nLease: .*\n\nNot in this comparison\./);
    expect(doc).toContain('`redlock-universal`: every published version');
  });
});

describe('replay commands from any clone', () => {
  it("takes the run's project root out of the paths, leaving other paths alone", async () => {
    const { fromRoot } = await import('../../src/compare/render-libraries-md.js');
    const replay = "fencecheck run --results /w/fc/results/compare/x/runs/a/seed-1 --client '/usr/bin/node /w/fc/clients/node/simple-redis-mutex.mjs' --seed 1";
    expect(fromRoot(replay, '/w/fc')).toBe(
      "fencecheck run --results results/compare/x/runs/a/seed-1 --client '/usr/bin/node clients/node/simple-redis-mutex.mjs' --seed 1",
    );
    expect(fromRoot(replay, '/w/fc/')).toBe(fromRoot(replay, '/w/fc'));
    expect(fromRoot(replay, undefined)).toBe(replay);
    expect(fromRoot('--client /w/fcx/a.mjs', '/w/fc')).toBe('--client /w/fcx/a.mjs');
  });
});

describe("how many of the libraries' runs went at once", () => {
  const at = (startMs: number, durationMs: number | null): Pick<RunSummary, 'startedAt' | 'durationMs'> => ({
    startedAt: new Date(Date.UTC(2026, 11, 7) + startMs).toISOString(),
    durationMs,
  });
  const reportOf = (runs: Pick<RunSummary, 'startedAt' | 'durationMs'>[]) => ({ cells: [{ runs }] }) as unknown as Pick<CompareReport, 'cells'>;

  it('counts runs under way together from their recorded starts and durations; back to back is one', () => {
    expect(mostAtOnce(reportOf([at(0, 1000), at(1000, 1000), at(2000, 500)]))).toBe(1);
    expect(mostAtOnce(reportOf([at(0, 1000), at(500, 1000), at(1600, 100)]))).toBe(2);
    // A run without a start or a duration (not run, or cut short) is not counted.
    expect(mostAtOnce(reportOf([at(0, 1000), { startedAt: null, durationMs: 5 }, at(10, null)]))).toBe(1);
    expect(mostAtOnce(reportOf([]))).toBe(0);
  });

  it('agrees with counting at every start on seeded random schedules', () => {
    const seed = 20261207;
    const rng = new Prng(seed);
    for (let k = 0; k < 200; k++) {
      const runs = Array.from({ length: rng.int(1, 12) }, () => at(rng.int(0, 20_000), rng.int(1, 8000)));
      const spans = runs.map((r) => ({ start: Date.parse(r.startedAt!), end: Date.parse(r.startedAt!) + r.durationMs! }));
      // Reference: the most runs whose half-open span [start, end) holds some run's start.
      const reference = Math.max(...spans.map((p) => spans.filter((q) => q.start <= p.start && p.start < q.end).length));
      expect(mostAtOnce(reportOf(runs)), `seed ${seed}, schedule ${k}`).toBe(reference);
    }
  });
});
