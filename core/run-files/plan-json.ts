/**
 * plan.json: the run's whole plan (core/plan/run-plan.ts) as the run
 * was going to execute it: options, phases, hosts, fault windows and every
 * worker's sections (docs/run-directory.md). `fencecheck run --plan` prints
 * the same text without running anything.
 *
 * The reader checks every field the interpreter reads and names the first
 * bad one; it does not plan again and compare, since a plan.json written by
 * an older fencecheck is the faithful record of what that run did, even
 * where today's planner would plan otherwise.
 */
import { UsageError } from '../errors.js';
import { PHASE_NAMES, type Phase } from '../generator/phases.js';
import { windowOf } from '../generator/parse-script.js';
import { validateRunOptions, type RunOptions } from '../plan/run-options.js';
import type { RunPlan, WorkerPlan } from '../plan/run-plan.js';
import type { PlannedSection } from '../generator/client-plan.js';
import { formatJson } from './format-json.js';
import { RUN_FILES } from './run-files.js';
import { expecter, isNumber, isObject, isOneOf, isStrings, parseJsonFile, RunFileError, type Expect } from './run-file-error.js';
import { expectRunOptionFields } from './test-json.js';

export const PLAN_FILE = RUN_FILES.plan;

/** The text of plan.json (and of `fencecheck run --plan`). */
export function planText(plan: RunPlan): string {
  return formatJson(plan) + '\n';
}

export function parsePlanJson(text: string, file: string): RunPlan {
  const json = parseJsonFile(text, file);
  const expect = expecter(file);
  expect(isObject(json), '(top level)', 'an object', json);
  const p = json as Record<string, unknown>;
  const options = optionsOf(p['options'], file, expect);
  expect(Array.isArray(p['phases']) && p['phases'].length > 0, 'phases', 'a list of phases', p['phases']);
  (p['phases'] as unknown[]).forEach((phase, i) => expectPhase(phase, `phases[${i}]`, expect));
  expect(isStrings(p['lockNodes']), 'lockNodes', 'a list of node names', p['lockNodes']);
  expect(typeof p['resourceNode'] === 'string', 'resourceNode', 'a node name', p['resourceNode']);
  expect(isStrings(p['hosts']) && p['hosts'].length === options.clients, 'hosts', `a list of ${options.clients} client hosts (options.clients)`, p['hosts']);
  expect(
    Array.isArray(p['workers']) && p['workers'].length === options.clients,
    'workers',
    `a list of ${options.clients} worker plans (options.clients)`,
    p['workers'],
  );
  (p['workers'] as unknown[]).forEach((w, i) => expectWorker(w, i, `workers[${i}]`, expect));
  expect(Array.isArray(p['windows']), 'windows', 'a list of fault windows', p['windows']);
  const windows = (p['windows'] as unknown[]).map((w, i) =>
    windowOf(w, (field, wanted, found) => {
      throw new RunFileError(file, `expected \`windows[${i}].${field}\` to be ${wanted}, found ${JSON.stringify(found)}`);
    }),
  );
  for (const k of ['giveUpMs', 'victimWaitMs'] as const) expect(isNumber(p[k]) && p[k] >= 0, k, 'a number of ms >= 0', p[k]);
  return { ...(p as unknown as RunPlan), options, windows };
}

/** The options every run has (defaults filled in); the rest are optional. */
const REQUIRED_OPTIONS = [
  'nemesis',
  'timeLimitS',
  'clients',
  'ttlMs',
  'holdMs',
  'rate',
  'intervalMs',
  'durationMs',
  'recoverMs',
  'callTimeoutMs',
  'nemesisTarget',
  'redisPersistence',
  'resultsDir',
  'checkHold',
] as const satisfies readonly (keyof RunOptions)[];

/** The options: each field's type, then the run options' own checks (ranges, what applies), as a run makes them. */
function optionsOf(o: unknown, file: string, expect: Expect): RunOptions {
  expect(isObject(o), 'options', 'an object of run options', o);
  for (const k of REQUIRED_OPTIONS) expect((o as Record<string, unknown>)[k] !== undefined, `options.${k}`, 'set (a plan holds every option)', undefined);
  expectRunOptionFields(o as Record<string, unknown>, (ok, path, wanted, found) => expect(ok, `options.${path}`, wanted, found));
  const options = o as unknown as RunOptions;
  if (options.script !== undefined) {
    expect(Array.isArray(options.script), 'options.script', 'a list of fault windows', options.script);
    options.script.forEach((w, i) =>
      windowOf(w, (field, wanted, found) => {
        throw new RunFileError(file, `expected \`options.script[${i}].${field}\` to be ${wanted}, found ${JSON.stringify(found)}`);
      }),
    );
  }
  try {
    return validateRunOptions(options);
  } catch (err) {
    if (err instanceof UsageError) throw new RunFileError(file, `\`options\`: ${err.message}`, err);
    throw err;
  }
}

function expectPhase(x: unknown, path: string, expect: Expect): asserts x is Phase {
  expect(isObject(x) && isOneOf(PHASE_NAMES, x['name']), `${path}.name`, `one of ${PHASE_NAMES.join(', ')}`, isObject(x) ? x['name'] : x);
  const phase = x as Record<string, unknown>;
  expect(isNumber(phase['startMs']) && phase['startMs'] >= 0, `${path}.startMs`, 'a number of ms >= 0', phase['startMs']);
  if (phase['name'] === 'main' || phase['name'] === 'recover') {
    expect(isNumber(phase['endMs']) && phase['endMs'] >= (phase['startMs'] as number), `${path}.endMs`, 'a number of ms, at least startMs', phase['endMs']);
  }
  if (phase['name'] === 'final-reads')
    expect(isOneOf(PHASE_NAMES, phase['connectDuring']), `${path}.connectDuring`, `one of ${PHASE_NAMES.join(', ')}`, phase['connectDuring']);
}

function expectWorker(x: unknown, worker: number, path: string, expect: Expect): asserts x is WorkerPlan {
  expect(isObject(x) && x['worker'] === worker, `${path}.worker`, String(worker), isObject(x) ? x['worker'] : x);
  const w = x as Record<string, unknown>;
  expect(typeof w['host'] === 'string' && w['host'] !== '', `${path}.host`, 'a client host', w['host']);
  expect(Array.isArray(w['sections']), `${path}.sections`, 'a list of sections', w['sections']);
  (w['sections'] as unknown[]).forEach((s, seq) => expectSection(s, worker, seq, `${path}.sections[${seq}]`, expect));
}

function expectSection(x: unknown, client: number, seq: number, path: string, expect: Expect): asserts x is PlannedSection {
  expect(isObject(x), path, 'a section { client, seq, thinkMs, holdMs, value }', x);
  const s = x as Record<string, unknown>;
  expect(s['client'] === client, `${path}.client`, String(client), s['client']);
  expect(s['seq'] === seq, `${path}.seq`, String(seq), s['seq']);
  for (const k of ['thinkMs', 'holdMs'] as const) expect(isNumber(s[k]) && s[k] >= 0, `${path}.${k}`, 'a number of ms >= 0', s[k]);
  expect(s['value'] === null || typeof s['value'] === 'string', `${path}.value`, 'a string or null', s['value']);
}
