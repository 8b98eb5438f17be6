/**
 * The finder in docs/libraries.md: a part's untested library × resource cells
 * (and only those) get a `fencecheck hunt` command; a hunt's own hunt.json
 * (written by the real hunt loop over the simulation) reads back as its
 * answer; and the table takes that answer for an untested cell only: unsafe
 * with the try that broke it and its shrink, safe with the weight of its
 * tested tries, or still untested saying the hunt did not reach it either.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCompareReport, type MatrixInput } from '../../src/compare/compare-report.js';
import { rowOfLabel } from '../../src/compare/compare-spec.js';
import { huntedCell, libraryCell, type LibraryCell, type LibraryHunt } from '../../src/compare/library-cell.js';
import { renderLibrariesMd } from '../../src/compare/render-libraries-md.js';
import type { RunSummary } from '../../src/compare/run-summary.js';
import { huntTargets, readHunts, recordHunt } from '../../src/cli/libraries-hunt.js';
import { runHunt } from '../../src/hunt/run-hunt.js';
import { simHuntDeps } from '../hunt/sim-hunt-deps.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { ruledOutRate } from '../../core/checkers/lock/weight.js';

const PGA = 'pg-advisory';
const SRM = 'simple-redis-mutex@redis';
const untested = {
  outcome: 'untested' as const,
  untestedWhy: 'the lock never failed: no double hold and no refusal',
  evidence: { faults: { planned: 2, applied: 2, skipped: [], failed: [] }, protection: { doubleHolds: 0, refusals: 0 } },
};
function run(cellId: string, over: Partial<RunSummary>): RunSummary {
  return {
    id: `${cellId}#1`,
    cellId,
    seed: 1,
    dir: `/out/runs/${cellId.replace(/\//g, '-')}-1`,
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
    replay: 'fencecheck run --seed 1',
    startedAt: null,
    error: null,
    ...over,
  };
}
const input: MatrixInput = {
  backends: [rowOfLabel(SRM), rowOfLabel(PGA)],
  resources: ['none', 'fence-claim', 'cas-unique'],
  nemeses: ['client-pause'],
  planned: new Map([
    [`${SRM}/none/client-pause`, [1]],
    [`${SRM}/cas-unique/client-pause`, [1]],
    [`${PGA}/none/client-pause`, [1]],
    [`${PGA}/fence-claim/client-pause`, [1]],
    [`${PGA}/cas-unique/client-pause`, [1]],
  ]),
  runs: [
    run(`${SRM}/none/client-pause`, { status: 'invalid', outcome: 'unsafe', anomalies: { 'lost-update': 2 } }),
    run(`${SRM}/cas-unique/client-pause`, untested),
    run(`${PGA}/none/client-pause`, untested),
    run(`${PGA}/fence-claim/client-pause`, untested),
    run(`${PGA}/cas-unique/client-pause`, {}),
  ],
  shards: [],
  description: 'lock-counter, 12 s per run',
  warnings: [],
};
const report = buildCompareReport(input, null, { outDir: '/out', generatedAt: '2026-12-02T00:00:00Z' });

describe('hunting the untested cells', () => {
  it('makes one hunt command per untested library × resource cell, none for unsafe or safe ones', () => {
    const part = madeTempDir('fc-lib-hunt-');
    writeFileSync(join(part, 'compare.json'), JSON.stringify(report));
    const targets = huntTargets(part, 12);
    expect(targets.map((t) => `${t.facts.library}@${t.facts.backend}/${t.facts.resource}`)).toEqual([
      'simple-redis-mutex@redis/cas-unique',
      'builtin@pg-advisory/none',
      'builtin@pg-advisory/fence-claim',
    ]);
    expect(targets[0]!.args).toEqual([
      'hunt',
      '--backend',
      'redis',
      '--client',
      'simple-redis-mutex',
      '--resource',
      'cas-unique',
      '--budget-runs',
      '12',
      '--shrink-runs',
      '2',
      '--shrink-min-fails',
      '2',
      '--shrink-max-candidates',
      '3',
      '--results',
      join(part, 'hunts', '1'),
    ]);
    // The built-in client is not named.
    expect(targets[1]!.args).not.toContain('--client');
  });

  it("reads back a hunt's own answer: the find, its try and how many tries", async () => {
    const part = madeTempDir('fc-lib-hunt-');
    const dir = join(part, 'hunts', '1');
    const huntDir = join(dir, 'hunt', '20261202T000000');
    mkdirSync(huntDir, { recursive: true });
    // A paused holder's lost update on redis without a fence: the simulated hunt finds it (run-hunt.test.ts).
    const r = await runHunt(
      {
        target: { backend: 'redis', resource: 'none', workload: 'lock-counter' },
        faults: ['client-pause'],
        budget: { runs: 20 },
        seed: 1,
        huntDir,
        keepGoing: false,
        shape: { timeLimitS: 6, clients: 3, ttlMs: 500 },
      },
      simHuntDeps(),
    );
    expect(r.found).not.toBeNull();
    recordHunt(dir, { library: 'builtin', backend: 'redis', resource: 'none', budgetRuns: 20 }, 61_000);
    const [hunt, ...rest] = readHunts(part);
    expect(rest).toEqual([]);
    expect(hunt).toMatchObject({
      library: 'builtin',
      backend: 'redis',
      resource: 'none',
      exitCode: 1,
      tries: r.found!.tryNumber,
      durationMs: 61_000,
      found: { tryNumber: r.found!.record.plan.index + 1, replay: r.found!.record.replay },
      shrink: null,
    });
    // hunt.json names the hunt's own find (the most reproducible violation, which need not be the first).
    const written = JSON.parse(readFileSync(join(huntDir, 'hunt.json'), 'utf8')) as { find: number | null };
    expect(written.find).toBe(r.found!.record.plan.index);
    expect(hunt!.lines[0]).toMatch(/^VIOLATION: 1 of /);
    // A cell without its cell.json (a hunt cut short) is not read.
    mkdirSync(join(part, 'hunts', '2', 'hunt', 'x'), { recursive: true });
    expect(readHunts(part)).toHaveLength(1);
  }, 60_000);
});

describe("an untested cell takes its hunt's answer", () => {
  const cell = (id: string): LibraryCell => libraryCell(report.cells.filter((c) => c.id.startsWith(id)));
  const hunt = (over: Partial<LibraryHunt>): LibraryHunt => ({
    library: 'builtin',
    backend: PGA,
    resource: 'none',
    exitCode: 3,
    tries: 10,
    tested: 0,
    lines: ['UNTESTED: 10 tries, none put the protection to the test'],
    durationMs: 150_000,
    found: null,
    shrink: null,
    ...over,
  });

  it('unsafe when the hunt broke it, safe with the weight of its tested tries, untested saying so otherwise; never a safe or unsafe cell', () => {
    const before = cell(`${PGA}/none/`);
    expect(before.outcome).toBe('untested');
    expect(huntedCell(before, hunt({ exitCode: 1, found: { tryNumber: 4, replay: 'fencecheck run --seed 9' } }))).toMatchObject({
      outcome: 'unsafe',
      columns: ["a hunt's try 4"],
    });
    expect(huntedCell(before, hunt({ exitCode: 0, tested: 8 }))).toMatchObject({ outcome: 'safe', runs: 8, ruledOut: ruledOutRate(8) });
    const still = huntedCell(before, hunt({}));
    expect(still.outcome).toBe('untested');
    expect(still.why).toBe(
      "the lock never failed: no double hold and no refusal; a hunt of 10 tries with faults aimed at the lock's events did not reach it either",
    );
    // A hunt with no tested try is no evidence of safety, whatever its exit.
    expect(huntedCell(before, hunt({ exitCode: 0, tested: 0 })).outcome).toBe('untested');
    const safe = cell(`${PGA}/cas-unique/`);
    expect(huntedCell(safe, hunt({ resource: 'cas-unique', exitCode: 1, found: { tryNumber: 1, replay: 'x' } }))).toBe(safe);
  });

  it('shows in the table and under its library, with the try and its shrink', () => {
    const part = { name: PGA, startedAt: '2026-12-02T00:00:00Z', durationMs: 60_000, command: 'fencecheck compare --backends pg-advisory', machine: '2 × CPU' };
    const hunts = [
      hunt({
        exitCode: 1,
        tries: 4,
        lines: ['VIOLATION: 1 of 4 tries violated; the first on try 4 after 52s'],
        found: { tryNumber: 4, replay: 'fencecheck run --results /w/fc/results/x --seed 9' },
        shrink: { line: 'shrunk to 1 fault event, 2 clients, 5 s; reproduced 2/2', replay: 'fencecheck run --seed 10' },
      }),
      hunt({
        resource: 'fence-claim',
        exitCode: 0,
        tested: 8,
        lines: [
          'no violation: 10 tries, 8 of them tested',
          'no violation in 8 tries, 30 dangerous moments tested: a failure that shows in at least 31 % of tries would have been found with 95 % confidence',
        ],
      }),
    ];
    const doc = renderLibrariesMd(report, { parts: [part], merge: 'm', regenerate: 'npm run libraries', versions: {}, missing: [], root: '/w/fc', hunts });
    const row = doc.split('\n').find((l) => l.startsWith('| [builtin](#builtin-on-pg-advisory) |'))!;
    expect(row).toContain(
      "| **unsafe** under a hunt's try 4 ([reproduce](#builtin-on-pg-advisory)) | safe after a hunt: no violation in 10 tries, 8 tested, ruling out ≥ 31 % ([hunt](#builtin-on-pg-advisory)) |",
    );
    expect(doc).toContain(
      '- **none**, 4 tries (2m30s): VIOLATION: 1 of 4 tries violated; the first on try 4 after 52s\n  the try: `fencecheck run --results results/x --seed 9`\n  shrunk to 1 fault event, 2 clients, 5 s; reproduced 2/2: `fencecheck run --seed 10`',
    );
    expect(doc).toContain('  no violation in 8 tries, 30 dangerous moments tested: a failure that shows in at least 31 % of tries');
    // The library without a hunt keeps its seeded answer.
    expect(doc.split('\n').find((l) => l.startsWith('| [simple-redis-mutex](#simple-redis-mutex-on-redis) |'))).toContain('untested: the lock never failed');
  });
});
