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
import { huntTargets, readHunts, recordHunt, weighTargets } from '../../src/cli/libraries-hunt.js';
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
/** Every hunt's command ends alike: a find shrunk with few re-runs, the hunt written into its cell's directory. */
const shrinkAndResults = (dir: string): string[] => ['--shrink-runs', '2', '--shrink-min-fails', '2', '--shrink-max-candidates', '3', '--results', dir];

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
      ...shrinkAndResults(join(part, 'hunts', '1')),
    ]);
    // The built-in client is not named.
    expect(targets[1]!.args).not.toContain('--client');
  });

  it('makes one weighing hunt per safe library × resource cell, none for unsafe or untested ones', () => {
    const part = madeTempDir('fc-lib-weigh-');
    writeFileSync(join(part, 'compare.json'), JSON.stringify(report));
    const targets = weighTargets(part, 10, '3m');
    expect(targets.map((t) => `${t.facts.library}@${t.facts.backend}/${t.facts.resource}`)).toEqual(['builtin@pg-advisory/cas-unique']);
    expect(targets[0]!.facts).toEqual({ library: 'builtin', backend: PGA, resource: 'cas-unique', purpose: 'weigh', untilRuledOut: 10, budget: '3m' });
    expect(targets[0]!.args).toEqual([
      'hunt',
      '--backend',
      PGA,
      '--resource',
      'cas-unique',
      '--until-ruled-out',
      '10',
      '--budget',
      '3m',
      ...shrinkAndResults(join(part, 'weighs', '1')),
    ]);
    // Apart from the untested cells' hunts, whose numbering it does not disturb.
    expect(huntTargets(part, 12).map((t) => t.dir)).not.toContain(targets[0]!.dir);
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
    // A cell.json of before weighing hunts (no purpose) is an untested cell's.
    writeFileSync(
      join(dir, 'cell.json'),
      `${JSON.stringify({ library: 'builtin', backend: 'redis', resource: 'none', budgetRuns: 20, durationMs: 61_000 })}\n`,
    );
    const [hunt, ...rest] = readHunts(part);
    expect(rest).toEqual([]);
    expect(hunt).toMatchObject({
      purpose: 'untested',
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

  it("reads back a weighing hunt's answer with how far it got toward its share", async () => {
    const part = madeTempDir('fc-lib-weigh-');
    const dir = join(part, 'weighs', '1');
    const huntDir = join(dir, 'hunt', '20261207T000000');
    mkdirSync(huntDir, { recursive: true });
    // A fenced resource holds under a paused holder (the simulation's truth): every tested try is clean.
    const seed = 7;
    const r = await runHunt(
      {
        target: { backend: 'zookeeper', resource: 'fence-claim', workload: 'lock-counter' },
        faults: ['client-pause'],
        budget: { runs: 12 },
        seed,
        huntDir,
        keepGoing: false,
        untilRuledOut: 0.5,
        shape: { timeLimitS: 6, clients: 3, ttlMs: 500 },
      },
      simHuntDeps(),
    );
    expect(r.found, `seed ${seed}`).toBeNull();
    recordHunt(dir, { library: 'kazoo', backend: 'zookeeper', resource: 'fence-claim', purpose: 'weigh', untilRuledOut: 50, budget: '3m' }, 90_000);
    const [hunt, ...rest] = readHunts(part);
    expect(rest).toEqual([]);
    expect(hunt).toMatchObject({ purpose: 'weigh', library: 'kazoo', exitCode: 0, durationMs: 90_000 });
    expect(hunt!.tested, `seed ${seed}`).toBeGreaterThan(0);
    expect(hunt!.lines[0]).toBe(`no violation: ${hunt!.tries} tries, ${hunt!.tested} of them tested`);
    // 5 clean tested tries rule out 50 % (ruledOutRate(5) < 0.5); fewer say how many it still lacked.
    expect(hunt!.lines.at(-1)).toBe(
      hunt!.tested >= 5
        ? `until-ruled-out 50 %: reached with ${hunt!.tested} tested tries`
        : expect.stringMatching(new RegExp(`^until-ruled-out 50 %: NOT reached: ${hunt!.tested} of the 5 tested tries it takes`)),
    );
  }, 60_000);
});

/** The library × resource cell of the report whose cell ids start with `id`. */
const cell = (id: string): LibraryCell => libraryCell(report.cells.filter((c) => c.id.startsWith(id)));
/** An untested cell's hunt of the built-in client on pg-advisory that tested nothing, but for `over`. */
const aHunt = (over: Partial<LibraryHunt>): LibraryHunt => ({
  purpose: 'untested',
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

describe("a safe cell takes its weighing hunt's answer", () => {
  const weigh = (over: Partial<LibraryHunt>): LibraryHunt =>
    aHunt({
      purpose: 'weigh',
      resource: 'cas-unique',
      exitCode: 0,
      tries: 40,
      tested: 30,
      lines: ['no violation: 40 tries, 30 of them tested'],
      durationMs: 180_000,
      ...over,
    });

  it("weighs by the hunt's tested tries, turns unsafe on its find, keeps the runs' weight when it tested nothing; never an untested cell", () => {
    const safe = cell(`${PGA}/cas-unique/`);
    expect(safe).toMatchObject({ outcome: 'safe', runs: 1, ruledOut: ruledOutRate(1) });
    expect(huntedCell(safe, weigh({}))).toMatchObject({ outcome: 'safe', runs: 30, ruledOut: ruledOutRate(30), columns: ['hunt (40 tries)'] });
    expect(huntedCell(safe, weigh({ exitCode: 1, found: { tryNumber: 17, replay: 'fencecheck run --seed 3' } }))).toMatchObject({
      outcome: 'unsafe',
      columns: ["a hunt's try 17"],
    });
    // Untested (3) or unknown (2): no weight of its own; the seeded runs' stays.
    expect(huntedCell(safe, weigh({ exitCode: 3, tested: 0 }))).toBe(safe);
    expect(huntedCell(safe, weigh({ exitCode: 2, tested: 4 }))).toBe(safe);
    const untestedCell = cell(`${PGA}/none/`);
    expect(huntedCell(untestedCell, weigh({ resource: 'none' }))).toBe(untestedCell);
  });

  it('shows the weighed cell in the table, and the hunt under its library', () => {
    const part = { name: PGA, startedAt: '2026-12-02T00:00:00Z', durationMs: 60_000, command: 'fencecheck compare --backends pg-advisory', machine: '2 × CPU' };
    const lines = [
      'no violation: 40 tries, 30 of them tested',
      'no violation in 30 tries, 120 dangerous moments tested: a failure that shows in at least 9.5 % of tries would have been found with 95 % confidence',
      'best near miss: try 3: a double hold (/w/fc/results/x/try-003)',
      'until-ruled-out 10 %: reached with 30 tested tries',
    ];
    const doc = renderLibrariesMd(report, {
      parts: [part],
      merge: 'm',
      regenerate: 'npm run libraries',
      versions: {},
      missing: [],
      root: '/w/fc',
      hunts: [weigh({ lines })],
    });
    const row = doc.split('\n').find((l) => l.startsWith('| [builtin](#builtin-on-pg-advisory) |'))!;
    expect(row).toContain('| safe after a hunt: no violation in 40 tries, 30 tested, ruling out ≥ 9.5 % ([hunt](#builtin-on-pg-advisory)) |');
    expect(doc).toContain(`- **cas-unique** (weighed), 40 tries (3m00s): ${lines[0]}\n  ${lines[1]}\n  ${lines[3]}`);
    expect(doc).not.toContain('best near miss');
  });
});

describe("an untested cell takes its hunt's answer", () => {
  const hunt = aHunt;

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
        lines: [
          'VIOLATION: 1 of 4 tries violated; the first on try 4 after 52s',
          '  1 double hold, 1 write after the lease ended',
          '  the data: broken by stale-writes only; lost-updates held',
          'run: /w/fc/results/x/try-004',
        ],
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
      '- **none**, 4 tries (2m30s): VIOLATION: 1 of 4 tries violated; the first on try 4 after 52s\n  1 double hold, 1 write after the lease ended\n  the data: broken by stale-writes only; lost-updates held\n  the try: `fencecheck run --results results/x --seed 9`\n  shrunk to 1 fault event, 2 clients, 5 s; reproduced 2/2: `fencecheck run --seed 10`',
    );
    expect(doc).toContain('  no violation in 8 tries, 30 dangerous moments tested: a failure that shows in at least 31 % of tries');
    // The library without a hunt keeps its seeded answer.
    expect(doc.split('\n').find((l) => l.startsWith('| [simple-redis-mutex](#simple-redis-mutex-on-redis) |'))).toContain('untested: the lock never failed');
  });
});
