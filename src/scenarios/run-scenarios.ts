/**
 * `runScenarios`: the planned scenario runs, one at a time (one cluster per
 * machine), each through runLockTest; after every run the debate table is
 * rebuilt and rewritten, so it can be watched as it fills.
 *
 *   results/debate/<timestamp>/
 *     debate.html debate.md debate.json
 *     runs/<scenario id>/<scenario>-<variant>-s<seed>.log          the harness's lines
 *     runs/<scenario id>/<scenario>-<variant>-s<seed>/<timestamp>/ the run directory
 *
 * Each run's test.json gets the scenario's replay command (runLockTest's own
 * replay line cannot express a scripted timeline) and the rows it serves, and
 * its report is rewritten to show them. Another fencecheck process holding
 * the machine's cluster is waited for (up to 30 minutes a run, by
 * startCluster), never interrupted. A run whose tool failed is recorded as an
 * error (the rows say so) and the others go on; errors every later run would
 * hit too (bad options, not root) stop it.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunOptions } from '../../workloads/runner/run-options.js';
import { FencecheckError } from '../errors.js';
import { formatDuration } from '../compare/format-units.js';
import { buildDebateReport, type DebateReport } from './debate-report.js';
import { rowId, type PlannedScenarioRun, type ScenarioSelection } from './plan-scenario-runs.js';
import { failedRun, readScenarioRun, type ScenarioRun } from './scenario-run.js';
import { summarizeVariant } from './summarize-variant.js';
import { writeDebate } from './write-debate.js';

export interface ScenarioDeps {
  /** runLockTest, or a stand-in in tests; it waits up to `busyTimeoutMs` for the machine's cluster itself. */
  runOne: (options: RunOptions, hooks: { log: (line: string) => void; busyTimeoutMs: number }) => Promise<{ runDir: string }>;
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

/** Errors every later run would hit as well. */
const FATAL_CODES = new Set(['usage', 'preflight']);
/** How long a run waits for another process's cluster (startCluster looks every 200 ms) before it fails. */
const BUSY_WAIT_MS = 30 * 60_000;

export async function runScenarios(outDir: string, selection: readonly ScenarioSelection[], seeds: number[], plan: readonly PlannedScenarioRun[], deps: ScenarioDeps): Promise<DebateReport> {
  const began = deps.now();
  const byRow = new Map<string, ScenarioRun[]>();
  const refresh = (): DebateReport => {
    const entries = selection.map(({ scenario, variants }) => ({
      scenario,
      variants: variants.map((v) => summarizeVariant(scenario, v, seeds, byRow.get(rowId({ scenarioId: scenario.id, label: v.label })) ?? [])),
    }));
    const report = buildDebateReport(entries, { outDir, seeds, generatedAt: new Date(deps.now()).toISOString(), durationMs: deps.now() - began });
    writeDebate(outDir, report);
    return report;
  };
  refresh();
  for (const p of plan) {
    const started = deps.now();
    deps.say(`[${p.index + 1}/${plan.length}] ${rowId(p.owner)} seed ${p.seed}${p.rows.length > 1 ? ` (also ${p.rows.slice(1).map(rowId).join(', ')})` : ''}`);
    const run = await runOnce(p, deps);
    p.rows.forEach((row, i) => {
      const id = rowId(row);
      byRow.set(id, [...(byRow.get(id) ?? []), { ...run, sharedFrom: i === 0 ? null : rowId(p.owner) }]);
    });
    deps.say(`    ${outcomeLine(run)} (${formatDuration(deps.now() - started)})`);
    refresh();
  }
  return refresh();
}

/** One planned run: run (waiting for the machine's cluster), stamp, read back; a tool failure becomes an error row. */
async function runOnce(p: PlannedScenarioRun, deps: ScenarioDeps): Promise<ScenarioRun> {
  const dir = join(p.options.resultsDir, p.options.name ?? '');
  const logPath = `${dir}.log`;
  mkdirSync(p.options.resultsDir, { recursive: true });
  const log = (line: string): void => {
    appendFileSync(logPath, `${new Date(deps.now()).toISOString()} ${line}\n`);
    if (deps.verbose) deps.say(`    ${line}`);
  };
  const identity = { id: `${rowId(p.owner)}#${p.seed}`, cellId: rowId(p.owner), seed: p.seed };
  const started = deps.now();
  if (await deps.clusterBusy()) deps.say(`    another fencecheck process is running a cluster on this machine: waiting for it to finish (up to ${BUSY_WAIT_MS / 60_000} min)`);
  const before = new Set(runDirs(dir));
  try {
    const { runDir } = await deps.runOne(p.options, { log, busyTimeoutMs: BUSY_WAIT_MS });
    stampScenario(runDir, p);
    if (deps.writeReport) await deps.writeReport(runDir).catch((err: unknown) => log(`report: not rewritten: ${messageOf(err)}`));
    return await readScenarioRun(runDir, identity, p.options.script?.length ?? 0);
  } catch (err) {
    if (err instanceof FencecheckError && FATAL_CODES.has(err.code)) throw err;
    log(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return failedRun(identity, p.replay, messageOf(err), runDirs(dir).filter((d) => !before.has(d)).at(-1) ?? null, deps.now() - started);
  }
}

/** test.json gets the scenario's replay command and rows (runLockTest's replay cannot express a script). */
export function stampScenario(runDir: string, p: PlannedScenarioRun): void {
  const path = join(runDir, 'test.json');
  const test = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  test['replay'] = p.replay;
  test['scenario'] = { run: rowId(p.owner), rows: p.rows.map(rowId), seed: p.seed };
  writeFileSync(path, JSON.stringify(test, null, 2) + '\n');
}

/** The run directories (timestamps) of one run name. */
function runDirs(nameDir: string): string[] {
  if (!existsSync(nameDir)) return [];
  return readdirSync(nameDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(nameDir, e.name))
    .sort();
}

function outcomeLine(run: ScenarioRun): string {
  if (run.summary.status === 'error') return `ERROR: ${(run.summary.error ?? '?').split('\n')[0]}`;
  const prop = (name: string, v: ScenarioRun['lock']): string => `${name} ${v.valid === true ? 'safe' : v.valid === false ? 'UNSAFE' : 'unknown'}`;
  const faults = run.facts ? ` · faults ${run.facts.faults.applied}/${run.facts.faults.planned}` : '';
  return `${prop('data', run.data)} · ${prop('lock', run.lock)}${faults} · ${run.summary.dir ?? ''}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
