/**
 * The two JSON files of a run directory that the report reads besides the
 * history (docs/run-directory.md): `test.json`, every option of the run, and
 * `results.json`, the checkers' verdicts with their anomalies.
 *
 * `test.json` is open-ended (a run records whatever options it had), so it is
 * kept as a JSON object and the report picks the fields it knows. The shape of
 * `results.json` matters more: an anomaly's `window` and `opIndexes` drive the
 * timeline, so `parseRunResults` checks them and names the first bad field.
 */
import { EXIT, FencecheckError } from '../errors.js';
import { jsonTextProblem } from '../history/json-text-checks.js';
import { MAX_DEPTH } from '../history/read-limits.js';
import type { Value } from '../history/op.js';

export type RunInfo = { [key: string]: Value };

export type Validity = true | false | 'unknown';

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

export interface Anomaly {
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

export interface CheckerVerdict {
  checker: string;
  valid: Validity;
  summary?: string;
  /** Why a checker that crashed or timed out is unknown. */
  error?: string;
  anomalyCount?: number;
  anomalies?: Anomaly[];
  stats?: { [key: string]: Value };
}

export interface RunResults {
  valid: Validity;
  durationMs?: number;
  checkers: CheckerVerdict[];
}

/** A run file that is not what docs/run-directory.md says. Exit 254. */
export class RunFileError extends FencecheckError {
  constructor(file: string, detail: string, cause?: unknown) {
    super('run-file', `${file}: ${detail}`, {
      hint: 'The file does not follow docs/run-directory.md; regenerate it with `fencecheck check RUN_DIR`, or fix the tool that wrote it.',
      exitCode: EXIT.badInput,
      cause,
    });
  }
}

export function parseJsonFile(text: string, file: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (err) {
    throw new RunFileError(file, `expected JSON, found a syntax error (${(err as Error).message})`, err);
  }
  // Nesting deep enough to overflow the stack of the recursive code that reads it later (stringify, the report) is refused here.
  const deep = jsonTextProblem(text, MAX_DEPTH, { numbers: false });
  if (deep !== null) throw new RunFileError(file, `expected ${deep.expected}, found ${deep.found} at character ${deep.offset + 1}`);
  return json;
}

export function parseRunInfo(text: string, file: string): RunInfo {
  const json = parseJsonFile(text, file);
  if (!isObject(json)) throw new RunFileError(file, `expected a JSON object, found ${describe(json)}`);
  return json as RunInfo;
}

/** results.json, checked where the report relies on it; other fields pass through untouched. */
export function parseRunResults(text: string, file: string): RunResults {
  const json = parseJsonFile(text, file);
  const expect = (ok: boolean, path: string, wanted: string, found: unknown): void => {
    if (!ok) throw new RunFileError(file, `expected \`${path}\` to be ${wanted}, found ${describe(found)}`);
  };
  expect(isObject(json), '(top level)', 'an object', json);
  const r = json as { valid?: unknown; checkers?: unknown };
  expect(isValidity(r.valid), 'valid', 'true, false or "unknown"', r.valid);
  expect(Array.isArray(r.checkers), 'checkers', 'an array', r.checkers);
  (r.checkers as unknown[]).forEach((c, i) => {
    const at = `checkers[${i}]`;
    expect(isObject(c), at, 'an object', c);
    const v = c as { checker?: unknown; valid?: unknown; anomalies?: unknown };
    expect(typeof v.checker === 'string', `${at}.checker`, 'a string', v.checker);
    expect(isValidity(v.valid), `${at}.valid`, 'true, false or "unknown"', v.valid);
    if (v.anomalies === undefined) return;
    expect(Array.isArray(v.anomalies), `${at}.anomalies`, 'an array', v.anomalies);
    (v.anomalies as unknown[]).forEach((a, j) => checkAnomaly(a, `${at}.anomalies[${j}]`, expect));
  });
  return json as RunResults;
}

type Expect = (ok: boolean, path: string, wanted: string, found: unknown) => void;

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

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

function isIntegers(x: unknown): x is number[] {
  return Array.isArray(x) && x.every((n) => Number.isInteger(n));
}

function isValidity(x: unknown): x is Validity {
  return x === true || x === false || x === 'unknown';
}

function describe(x: unknown): string {
  const text = JSON.stringify(x) ?? String(x);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
