/**
 * Reading a run file strictly: the error that names the file and the field,
 * and the small checks the readers of test.json and results.json share.
 *
 * A reader checks every field its callers rely on and names the first bad one
 * ("expected `backend` to be one of redis, ..., found undefined"), so a
 * hand-edited or truncated file is exit 254 with a hint, never a TypeError
 * deep inside a report (exit 255).
 */
import { EXIT, FencecheckError } from '../errors.js';
import { jsonTextProblem } from '../history/json-text-checks.js';
import { MAX_DEPTH } from '../history/read-limits.js';
import { RUN_FILES } from './run-files.js';
import { parseStrictJson } from '../history/strict-json.js';

/** A run file that is not what docs/run-directory.md says. Exit 254. */
export class RunFileError extends FencecheckError {
  readonly file: string;
  /** `hint`: when the file is sound but not for this reader (a queue run's directory read as a lock run's). */
  constructor(file: string, detail: string, cause?: unknown, hint?: string) {
    super('run-file', `${file}: ${detail}`, {
      hint:
        hint ??
        (file.endsWith(RUN_FILES.test)
          ? 'The file does not follow docs/run-directory.md; `fencecheck run` writes it: restore it, or run the replay command again.'
          : 'The file does not follow docs/run-directory.md; regenerate it with `fencecheck check RUN_DIR`, or fix the tool that wrote it.'),
      exitCode: EXIT.badInput,
      cause,
    });
    this.file = file;
  }
}

export function parseJsonFile(text: string, file: string): unknown {
  let json: unknown;
  try {
    json = parseStrictJson(text) as unknown;
  } catch (err) {
    throw new RunFileError(file, `expected JSON, found a syntax error (${(err as Error).message})`, err);
  }
  // Nesting deep enough to overflow the stack of the recursive code that reads it later (stringify, the report) is refused here.
  const deep = jsonTextProblem(text, MAX_DEPTH, { numbers: false });
  if (deep !== null) throw new RunFileError(file, `expected ${deep.expected}, found ${deep.found} at character ${deep.offset + 1}`);
  return json;
}

/** Throws a RunFileError naming `path` unless `ok`. */
export type Expect = (ok: boolean, path: string, wanted: string, found: unknown) => void;

export function expecter(file: string): Expect {
  return (ok, path, wanted, found) => {
    if (!ok) throw new RunFileError(file, `expected \`${path}\` to be ${wanted}, found ${describe(found)}`);
  };
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function isNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

export function isCount(x: unknown): x is number {
  return Number.isSafeInteger(x) && (x as number) >= 0;
}

export function isIntegers(x: unknown): x is number[] {
  return Array.isArray(x) && x.every((n) => Number.isInteger(n));
}

export function isStrings(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

export function isOneOf<T extends string>(choices: readonly T[], x: unknown): x is T {
  return typeof x === 'string' && (choices as readonly string[]).includes(x);
}

/** A found value as the error shows it: JSON, cut at 60 characters; `undefined` for a missing field. */
export function describe(x: unknown): string {
  if (x === undefined) return 'nothing (the field is missing)';
  const text = JSON.stringify(x) ?? String(x);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
