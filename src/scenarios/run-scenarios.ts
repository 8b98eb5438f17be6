/**
 * `runScenarios`: the planned scenario runs, one at a time or one a lane
 * (`--parallel`: each lane a warm cluster in a slot of its own, keeping to its
 * backend while it has runs), each through runLockTest; after every run the
 * debate table is rebuilt (each row's runs in plan order, whichever ended
 * first) and rewritten, so it can be watched as it fills.
 *
 *   results/debate/<timestamp>/
 *     debate.html debate.md debate.json
 *     runs/<scenario id>/<scenario>-<variant>-s<seed>.log          the harness's lines
 *     runs/<scenario id>/<scenario>-<variant>-s<seed>/<timestamp>/ the run directory
 *
 * Each run's test.json gets the scenario's replay command (runLockTest's own
 * replay line cannot express a scripted timeline) and the rows it serves, and
 * its report is rewritten to show them. The runs go through the batch
 * runner (src/batch/batch-runner.ts) with SCENARIO_POLICY: another fencecheck
 * process holding the machine's cluster is waited for (up to 30 minutes a
 * run), never interrupted; a run whose tool failed is recorded as an error
 * (the rows say so) with the directory it left, and the others go on; errors
 * every later run would hit too (bad options, not root, a full disk) stop it.
 */
import { faultEvents } from '../../core/generator/fault-events.js';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunOptions } from '../../core/plan/run-options.js';
import { BatchRunner, SCENARIO_POLICY } from '../batch/batch-runner.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { formatDuration } from '../compare/format-units.js';
import { buildDebateReport, type DebateReport } from './debate-report.js';
import { rowId, type PlannedScenarioRun, type ScenarioSelection } from './plan-scenario-runs.js';
import { failedRun, readScenarioRun, type ScenarioRun } from './scenario-run.js';
import { summarizeVariant } from './summarize-variant.js';
import { writeDebate } from './write-debate.js';
import { drainOnLanes } from '../batch/drain-on-lanes.js';

export interface ScenarioDeps {
  /** runLockTest, or a stand-in in tests; it waits up to `busyTimeoutMs` for the machine's cluster itself, and throws RunFailedError once it made its directory. */
  runOne: (options: RunOptions, hooks: { log: (line: string) => void; busyTimeoutMs: number }, lane: number) => Promise<{ runDir: string }>;
  /** Runs at once, each on a lane of its own (`--parallel`); 1 when absent. */
  lanes?: number;
  /** Rewrites `<runDir>/report.html` (after the replay command is stamped); null to skip. */
  writeReport: ((runDir: string) => Promise<string>) | null;
  /** Whether another process holds the machine's cluster now. */
  clusterBusy: () => Promise<boolean>;
  /** Progress lines for a person. */
  say: (line: string) => void;
  /** Also pass each run's harness lines to `say`. */
  verbose: boolean;
  now: () => number;
}

export async function runScenarios(
  outDir: string,
  selection: readonly ScenarioSelection[],
  seeds: number[],
  plan: readonly PlannedScenarioRun[],
  deps: ScenarioDeps,
): Promise<DebateReport> {
  const began = deps.now();
  // Each planned run's outcome by its index: a row lists its runs in plan order, whichever lane ended first.
  const done = new Map<number, ScenarioRun>();
  const refresh = (): DebateReport => {
    const byRow = new Map<string, ScenarioRun[]>();
    for (const p of plan) {
      const run = done.get(p.index);
      if (!run) continue;
      p.rows.forEach((row, i) => {
        const id = rowId(row);
        byRow.set(id, [...(byRow.get(id) ?? []), { ...run, sharedFrom: i === 0 ? null : rowId(p.owner) }]);
      });
    }
    const entries = selection.map(({ scenario, variants }) => ({
      scenario,
      variants: variants.map((v) => summarizeVariant(scenario, v, seeds, byRow.get(rowId({ scenarioId: scenario.id, label: v.label })) ?? [])),
    }));
    const report = buildDebateReport(entries, { outDir, seeds, generatedAt: new Date(deps.now()).toISOString(), durationMs: deps.now() - began });
    writeDebate(outDir, report);
    return report;
  };
  refresh();
  const batch = new BatchRunner(SCENARIO_POLICY, deps.clusterBusy);
  const lanes = deps.lanes ?? 1;
  await drainOnLanes(
    plan,
    lanes,
    (p) => p.options.backend,
    async (p, lane) => {
      const started = deps.now();
      const label = `[${p.index + 1}/${plan.length}] ${rowId(p.owner)} seed ${p.seed}`;
      deps.say(`${label}${p.rows.length > 1 ? ` (also ${p.rows.slice(1).map(rowId).join(', ')})` : ''}`);
      const run = await runOnce(batch, p, deps, lane);
      done.set(p.index, run);
      // With several lanes the outcome line names its run: another may have started in between.
      deps.say(`    ${lanes > 1 ? `${label}: ` : ''}${outcomeLine(run)} (${formatDuration(deps.now() - started)})`);
      refresh();
    },
  );
  return refresh();
}

/** One planned run through the batch runner, stamped and read back; a tool failure becomes an error row. */
async function runOnce(batch: BatchRunner, p: PlannedScenarioRun, deps: ScenarioDeps, lane: number): Promise<ScenarioRun> {
  const logPath = `${join(p.options.resultsDir, p.options.name ?? '')}.log`;
  mkdirSync(p.options.resultsDir, { recursive: true });
  const log = (line: string): void => {
    appendFileSync(logPath, `${new Date(deps.now()).toISOString()} ${line}\n`);
    if (deps.verbose) deps.say(`    ${line}`);
  };
  const identity = { id: `${rowId(p.owner)}#${p.seed}`, cellId: rowId(p.owner), seed: p.seed };
  const started = deps.now();
  const got = await batch.attempt((busyTimeoutMs) => deps.runOne(p.options, { log, busyTimeoutMs }, lane), { log, notice: (line) => deps.say(`    ${line}`) });
  if (!got.ok) return failedRun(identity, p.replay, got.error, got.runDir, deps.now() - started);
  const { runDir } = got.value;
  stampScenario(runDir, p);
  if (deps.writeReport) await deps.writeReport(runDir).catch((err: unknown) => log(`report: not rewritten: ${messageOf(err)}`));
  return await readScenarioRun(runDir, identity, faultEvents(p.options.script ?? []));
}

/** test.json gets the scenario's replay command and rows (runLockTest's replay cannot express a script), written through the store. */
export function stampScenario(runDir: string, p: PlannedScenarioRun): void {
  RunStore.open(runDir).amendTest({ replay: p.replay, scenario: { run: rowId(p.owner), rows: p.rows.map(rowId), seed: p.seed } });
}

function outcomeLine(run: ScenarioRun): string {
  if (run.summary.status === 'error') return `ERROR: ${(run.summary.error ?? '?').split('\n')[0]}`;
  const prop = (name: string, v: ScenarioRun['lock']): string => `${name} ${v.valid === true ? 'safe' : v.valid === false ? 'UNSAFE' : 'unknown'}`;
  // A fault that missed or failed (a dead delay proxy among them) is named, not only counted.
  const missed = run.facts?.faults.skipped ?? [];
  const faults = run.facts
    ? ` · faults ${run.facts.faults.applied}/${run.facts.faults.planned}${missed.length > 0 ? ` (${missed.length} missed or failed: ${missed[0]})` : ''}`
    : '';
  return `${prop('data', run.data)} · ${prop('lock', run.lock)}${faults} · ${run.summary.dir ?? ''}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
