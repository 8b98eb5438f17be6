/**
 * results.json: the checkers' verdicts of a run, which of them decide, and
 * the evidence that the faults struck and the protection was tested
 * (docs/run-directory.md). The writer's type (`ResultsJson`) and the reader's
 * (`StoredResults`) live together so they cannot drift apart.
 *
 * A reader relies on `valid`, `checkers` and each anomaly's `window`,
 * `opIndexes` and `witness` (the report zooms and highlights by them), and on
 * `deciding`, `outcome` and `evidence` (compare counts and colours by them):
 * `parseResultsJson` checks each and names the first bad field. The last
 * three are absent from a results.json written before fencecheck recorded
 * evidence; a reader then treats the run as untested, never as safe.
 */
import type { CheckerVerdict as LockCheckerVerdict, Validity } from '../checkers/lock/verdict.js';
import type { Evidence, Outcome } from '../checkers/lock/evidence.js';
import type { Value } from '../history/op.js';
import { RUN_FILES } from './run-files.js';
import { expecter, isCount, isIntegers, isNumber, isObject, isOneOf, isStrings, parseJsonFile, type Expect } from './run-file-error.js';

export type { Validity, Evidence, Outcome };

export const RESULTS_FILE = RUN_FILES.results;
export const OUTCOMES: readonly Outcome[] = ['safe', 'unsafe', 'unknown', 'untested'];
const VALIDITIES: readonly Validity[] = [true, false, 'unknown'];

/** What a run writes: every field present. */
export interface ResultsJson {
  valid: Validity;
  /** Names of the checkers whose verdicts make up `valid`; the others are information. */
  deciding: string[];
  durationMs: number | null;
  checkers: LockCheckerVerdict[];
  outcome: Outcome;
  evidence: Evidence;
}

/** A linearizability checker's witness, by the history's op indexes (docs/run-directory.md). */
export interface WitnessRef {
  /** Ops in linearization order: the longest linearizable prefix found. */
  prefix: number[];
  /** The op that cannot be linearized after the prefix. */
  op: number;
  /** The model state after the prefix, for a person. */
  state: string;
  /** Why the op cannot be linearized. */
  reason: string;
}

/** An anomaly as read back: the fields a report relies on are checked, the rest passes through. */
export interface StoredAnomaly {
  kind: string;
  message?: string;
  processes?: number[];
  tokens?: Value[];
  /** Nanoseconds of the history's clock. */
  window?: { start: number; end: number };
  /** The history's `index` values of the ops involved (an invocation or a completion). */
  opIndexes?: number[];
  witness?: WitnessRef;
  [extra: string]: Value | WitnessRef | undefined;
}

export interface StoredVerdict {
  checker: string;
  valid: Validity;
  summary?: string;
  /** Why a checker that crashed or timed out is unknown. */
  error?: string;
  anomalyCount?: number;
  anomalies?: StoredAnomaly[];
  stats?: { [key: string]: Value };
}

/** results.json as read back; `deciding`, `outcome` and `evidence` are missing from older files. */
export interface StoredResults {
  valid: Validity;
  deciding?: string[];
  durationMs?: number | null;
  checkers: StoredVerdict[];
  outcome?: Outcome;
  evidence?: Evidence;
}

/** results.json checked where its readers rely on it; other fields pass through untouched. */
export function parseResultsJson(text: string, file: string): StoredResults {
  const json = parseJsonFile(text, file);
  const expect = expecter(file);
  expect(isObject(json), '(top level)', 'an object', json);
  const r = json as Record<string, unknown>;
  expect(VALIDITIES.includes(r['valid'] as Validity), 'valid', 'true, false or "unknown"', r['valid']);
  expect(Array.isArray(r['checkers']), 'checkers', 'an array', r['checkers']);
  (r['checkers'] as unknown[]).forEach((c, i) => checkVerdict(c, `checkers[${i}]`, expect));
  if (r['deciding'] !== undefined) expect(isStrings(r['deciding']), 'deciding', 'an array of checker names', r['deciding']);
  if (r['durationMs'] !== undefined && r['durationMs'] !== null) expect(isNumber(r['durationMs']), 'durationMs', 'a number of ms or null', r['durationMs']);
  if (r['outcome'] !== undefined) expect(isOneOf(OUTCOMES, r['outcome']), 'outcome', `one of ${OUTCOMES.join(', ')}`, r['outcome']);
  if (r['evidence'] !== undefined) checkEvidence(r['evidence'], expect);
  return json as StoredResults;
}

function checkVerdict(c: unknown, at: string, expect: Expect): void {
  expect(isObject(c), at, 'an object', c);
  const v = c as Record<string, unknown>;
  expect(typeof v['checker'] === 'string', `${at}.checker`, 'a string', v['checker']);
  expect(VALIDITIES.includes(v['valid'] as Validity), `${at}.valid`, 'true, false or "unknown"', v['valid']);
  if (v['anomalyCount'] !== undefined) expect(isCount(v['anomalyCount']), `${at}.anomalyCount`, 'a count', v['anomalyCount']);
  if (v['stats'] !== undefined) expect(isObject(v['stats']), `${at}.stats`, 'an object', v['stats']);
  if (v['anomalies'] === undefined) return;
  expect(Array.isArray(v['anomalies']), `${at}.anomalies`, 'an array', v['anomalies']);
  (v['anomalies'] as unknown[]).forEach((a, j) => checkAnomaly(a, `${at}.anomalies[${j}]`, expect));
}

function checkAnomaly(a: unknown, at: string, expect: Expect): void {
  expect(isObject(a), at, 'an object', a);
  const x = a as { kind?: unknown; window?: unknown; opIndexes?: unknown; witness?: unknown };
  expect(typeof x.kind === 'string', `${at}.kind`, 'a string', x.kind);
  if (x.window !== undefined) {
    const w = x.window as { start?: unknown; end?: unknown };
    expect(isObject(w) && isNumber(w.start) && isNumber(w.end), `${at}.window`, '{ start, end } in nanoseconds', x.window);
  }
  if (x.opIndexes !== undefined) expect(isIntegers(x.opIndexes), `${at}.opIndexes`, 'an array of op indexes', x.opIndexes);
  if (x.witness === undefined) return;
  const w = x.witness as { prefix?: unknown; op?: unknown; state?: unknown; reason?: unknown };
  expect(isObject(w), `${at}.witness`, 'an object', w);
  expect(isIntegers(w.prefix), `${at}.witness.prefix`, 'an array of op indexes', w.prefix);
  expect(Number.isInteger(w.op), `${at}.witness.op`, 'an op index', w.op);
  expect(typeof w.state === 'string', `${at}.witness.state`, 'a string', w.state);
  expect(typeof w.reason === 'string', `${at}.witness.reason`, 'a string', w.reason);
}

function checkEvidence(e: unknown, expect: Expect): void {
  expect(isObject(e), 'evidence', 'an object', e);
  const { faults, protection } = e as { faults?: unknown; protection?: unknown };
  expect(isObject(faults), 'evidence.faults', 'an object', faults);
  const f = faults as Record<string, unknown>;
  for (const k of ['planned', 'applied'] as const) expect(isCount(f[k]), `evidence.faults.${k}`, 'a count', f[k]);
  const pairs = (key: 'skipped' | 'failed', second: 'why' | 'error'): void => {
    expect(Array.isArray(f[key]), `evidence.faults.${key}`, 'an array', f[key]);
    (f[key] as unknown[]).forEach((x, i) =>
      expect(isObject(x) && typeof x['fault'] === 'string' && typeof x[second] === 'string', `evidence.faults.${key}[${i}]`, `{ fault, ${second} } strings`, x),
    );
  };
  pairs('skipped', 'why');
  pairs('failed', 'error');
  expect(isObject(protection), 'evidence.protection', 'an object', protection);
  const p = protection as Record<string, unknown>;
  for (const k of ['doubleHolds', 'refusals'] as const) expect(isCount(p[k]), `evidence.protection.${k}`, 'a count', p[k]);
  if (p['overlaps'] !== undefined) expect(isCount(p['overlaps']), 'evidence.protection.overlaps', 'a count', p['overlaps']);
  // Client crashes: missing from files written before they were counted.
  const clients = (e as { clients?: unknown }).clients;
  if (clients === undefined) return;
  const c = clients as Record<string, unknown>;
  expect(isObject(clients) && isCount(c['crashes']), 'evidence.clients', '{ crashes, first } with a count of crashes', clients);
  const first = c['first'] as Record<string, unknown> | null;
  expect(
    first === null || (isObject(first) && typeof first['client'] === 'string' && typeof first['exit'] === 'string'),
    'evidence.clients.first',
    'null or { client, exit, stderrTail }',
    first,
  );
}
