import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FencecheckError, UsageError } from '../../core/errors.js';
import { RunFailedError } from '../../runtime/store/run-failed-error.js';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { planScenarioRuns, type ScenarioSelection } from '../../src/scenarios/plan-scenario-runs.js';
import { runScenarios, type ScenarioDeps } from '../../src/scenarios/run-scenarios.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { nemesisOps, QUIET, resultsOf, tempDir, writeRunDir } from './fixtures.js';
import { episodeHistory, type Episodes } from './episode-runs.js';

const s1 = findScenario('S1');
const s6 = findScenario('S6');
const selection: ScenarioSelection[] = [
  { scenario: s1, variants: selectVariants(s1, ['redis-none', 'redis-fence']) },
  { scenario: s6, variants: selectVariants(s6, ['pause-fence']) },
];

/** A stand-in for runLockTest: a run directory per call, its outcome by run name. */
function fakeRunOne(outcomes: Record<string, Episodes | Error>, calls: RunOptions[]): ScenarioDeps['runOne'] {
  let clock = 0;
  return async (options) => {
    calls.push(options);
    const runDir = join(options.resultsDir, options.name!, `20261129T1200${String(clock++).padStart(2, '0')}`);
    mkdirSync(runDir, { recursive: true });
    const outcome = outcomes[options.name!] ?? QUIET;
    // As runLockTest: bad options fail before the directory is made; anything later carries it.
    if (outcome instanceof UsageError) throw outcome;
    if (outcome instanceof Error) throw new RunFailedError(runDir, outcome);
    writeRunDir(runDir, episodeHistory(outcome, nemesisOps(2)), resultsOf(outcome, nemesisOps(2), 2), {
      name: options.name,
      replay: 'fencecheck run --backend redis',
    });
    writeFileSync(join(runDir, 'report.html'), '<p>report</p>');
    return { runDir };
  };
}

function deps(runOne: ScenarioDeps['runOne'], over: Partial<ScenarioDeps> = {}): ScenarioDeps & { lines: string[]; reports: string[] } {
  const lines: string[] = [];
  const reports: string[] = [];
  return {
    runOne,
    writeReport: async (dir) => {
      reports.push(JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8')).replay as string);
      return join(dir, 'report.html');
    },
    clusterBusy: async () => false,
    say: (l) => void lines.push(l),
    verbose: false,
    now: () => 0,
    lines,
    reports,
    ...over,
  };
}

describe('runScenarios', () => {
  it('runs the plan one at a time, stamps the replay, shares runs between rows and writes the debate', async () => {
    const out = tempDir('run');
    const plan = planScenarioRuns(selection, [1], `${out}/runs`);
    const calls: RunOptions[] = [];
    const d = deps(fakeRunOne({ 'S1-redis-none-s1': { lostUpdates: 2, resource: 'none' }, 'S1-redis-fence-s1': { fenced: 1, clean: 8 } }, calls));
    const report = await runScenarios(out, selection, [1], plan, d);
    expect(calls.map((c) => c.name)).toEqual(['S1-redis-none-s1', 'S1-redis-fence-s1']);
    expect(report.exitCode).toBe(0);
    const rows = report.scenarios.flatMap((s) => s.rows);
    expect(rows.map((r) => [r.scenarioId, r.label, r.match])).toEqual([
      ['S1', 'redis-none', 'as-expected'],
      ['S1', 'redis-fence', 'as-expected'],
      ['S6', 'pause-fence', 'as-expected'],
    ]);
    expect(rows[2]!.runs[0]).toMatchObject({ sharedFrom: 'S1/redis-fence', link: 'runs/S1/S1-redis-fence-s1/20261129T120001/report.html' });
    expect(rows[0]!.notes).toEqual(['faults applied: 2 of 3 windows', '2 of 4 acknowledged increments lost (50%)']);
    expect(rows[1]!.notes).toContain('accesses refused: fenced 1');
    const test = JSON.parse(readFileSync(join(out, 'runs/S1/S1-redis-fence-s1/20261129T120001/test.json'), 'utf8'));
    expect(test.replay).toBe('sudo npx fencecheck scenario run S1 --variant redis-fence --first-seed 1');
    expect(test.scenario).toEqual({ run: 'S1/redis-fence', rows: ['S1/redis-fence', 'S6/pause-fence'], seed: 1 });
    expect(d.reports).toEqual([plan[0]!.replay, plan[1]!.replay]);
    for (const f of ['debate.html', 'debate.md', 'debate.json']) expect(existsSync(join(out, f))).toBe(true);
    expect(readFileSync(join(out, 'debate.md'), 'utf8')).toContain('data safe in 1/1 seeds; lock unsafe in 1/1 seeds: 1 double hold');
    expect(d.lines[0]).toBe('[1/2] S1/redis-none seed 1');
    expect(d.lines[2]).toBe('[2/2] S1/redis-fence seed 1 (also S6/pause-fence)');
  });

  it('on two lanes: the runs side by side, each row its runs in plan order, the same table as one lane', async () => {
    const outcomes = { 'S1-redis-none-s1': { lostUpdates: 2, resource: 'none' as const }, 'S1-redis-fence-s1': { fenced: 1, clean: 8 } };
    const table = (r: Awaited<ReturnType<typeof runScenarios>>) =>
      r.scenarios.flatMap((s) => s.rows.map((row) => [row.scenarioId, row.label, row.match, row.runs.map((x) => [x.seed, x.status, x.sharedFrom])]));
    const one = await runScenarios(
      tempDir('one-lane'),
      selection,
      [1, 2],
      planScenarioRuns(selection, [1, 2], `${tempDir('one-runs')}/runs`),
      deps(fakeRunOne(outcomes, [])),
    );
    const out = tempDir('two-lanes');
    const plan = planScenarioRuns(selection, [1, 2], `${out}/runs`);
    const real = fakeRunOne(outcomes, []);
    let busy = 0;
    let most = 0;
    const lanes = new Set<number>();
    // The first run takes longest, so the second lane's runs end first.
    const slow: ScenarioDeps['runOne'] = async (o, hooks, lane) => {
      most = Math.max(most, ++busy);
      lanes.add(lane);
      for (let i = 0; i < (o.name === plan[0]!.options.name ? 6 : 1); i++) await new Promise((r) => setTimeout(r, 0));
      busy--;
      return real(o, hooks, lane);
    };
    const two = await runScenarios(out, selection, [1, 2], plan, { ...deps(slow), lanes: 2 });
    expect([most, lanes.size]).toEqual([2, 2]);
    expect(table(two)).toEqual(table(one));
  });

  it('says when another process holds the cluster, and lets runLockTest wait for it (30 min at most)', async () => {
    const out = tempDir('busy');
    const plan = planScenarioRuns([selection[0]!], [1], `${out}/runs`).slice(0, 1);
    const waits: number[] = [];
    const real = fakeRunOne({}, []);
    const d = deps(async (o, hooks, lane) => (waits.push(hooks.busyTimeoutMs), real(o, hooks, lane)), { clusterBusy: async () => true });
    const report = await runScenarios(out, [selection[0]!], [1], plan, d);
    expect(waits).toEqual([30 * 60_000]);
    expect(d.lines).toContain('    another fencecheck process is running a cluster on this machine: waiting for it to finish (up to 30 min)');
    expect(report.scenarios[0]!.rows[0]!.runs[0]!.status).toBe('valid');
    const busy = new FencecheckError('cluster-busy', 'Another fencecheck process (pid 1) is running a cluster on this machine');
    const gaveUp = await runScenarios(out, [selection[0]!], [1], plan, deps(fakeRunOne({ 'S1-redis-none-s1': busy }, [])));
    expect(gaveUp.scenarios[0]!.rows[0]!.runs.at(-1)).toMatchObject({ status: 'error', error: busy.message });
  });

  it('records a failed run as an error row and goes on; a usage error stops everything', async () => {
    const out = tempDir('fail');
    const plan = planScenarioRuns([selection[0]!], [1], `${out}/runs`);
    const report = await runScenarios(
      out,
      [selection[0]!],
      [1],
      plan,
      deps(fakeRunOne({ 'S1-redis-none-s1': new Error('lock client client1-1 was not ready within 30 s'), 'S1-redis-fence-s1': { fenced: 1 } }, [])),
    );
    const [failed, ok] = report.scenarios[0]!.rows;
    expect(failed!.runs[0]).toMatchObject({
      status: 'error',
      error: 'lock client client1-1 was not ready within 30 s',
      runDir: 'runs/S1/S1-redis-none-s1/20261129T120000',
    });
    expect(failed!.match).toBe('undecided');
    // Measured and valid: on a counter a double hold is information, not a verdict (the product's deciding rule).
    expect(ok!.runs[0]!.status).toBe('valid');
    expect(report.exitCode).toBe(2);
    expect(readFileSync(join(out, 'runs/S1/S1-redis-none-s1.log'), 'utf8')).toContain('error: Error: lock client client1-1 was not ready within 30 s');
    await expect(
      runScenarios(
        out,
        [selection[0]!],
        [1],
        plan,
        deps(fakeRunOne({ 'S1-redis-none-s1': new UsageError('Expected `--rate` to be a positive number, got `0`') }, [])),
      ),
    ).rejects.toThrow(UsageError);
  });
});
