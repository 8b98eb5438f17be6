/**
 * The `--expect FILE` format: a JSON array of expectations, each naming cells
 * by pattern and saying what they should show (docs/ci.md):
 *
 *   [
 *     { "resource": "fence-claim", "expect": "safe" },
 *     { "resource": "none", "nemesis": "client-pause", "expect": "unsafe", "kinds": ["lost-update"] },
 *     { "backend": "redlock*", "expect": "any", "note": "no token: we only watch these" }
 *   ]
 *
 * `backend`, `resource` and `nemesis` are patterns (`*` matches anything, a
 * list matches any of its patterns, a missing field matches every cell).
 * `expect` is `safe` (every run valid, and the faults struck and tested the
 * protection: an untested cell does not meet it; with `"useful": true` also no run where
 * the fence rejected every write), `unsafe` (at least one run invalid; with
 * `kinds`, each kind seen) or `any` (always met: to exempt cells from a broader
 * entry). Where entries overlap, the later one decides, as in .gitignore.
 */
import { UsageError } from '../../core/errors.js';
import { jsonTextProblem } from '../../core/history/json-text-checks.js';
import { MAX_DEPTH } from '../../core/history/read-limits.js';
import { BoundedReadError, readBoundedFile } from '../../runtime/store/read-bounded-file.js';
import { parseStrictJson } from '../../core/history/strict-json.js';

/** An expectations file is a few lines a person writes: a megabyte is far past any real one. */
export const MAX_EXPECT_BYTES = 2 ** 20;

/** `--expect FILE` read: a regular file of at most MAX_EXPECT_BYTES (a FIFO or /dev/zero is a 254, never a hang), parsed. */
export function readExpectations(file: string): Expectation[] {
  let text: string;
  try {
    text = readBoundedFile(file, MAX_EXPECT_BYTES);
  } catch (err) {
    if (!(err instanceof BoundedReadError)) throw err;
    throw new UsageError(`Expected \`--expect\` to name a readable file of expectations, got \`${file}\`, which ${err.why}`, HINT);
  }
  return parseExpectations(text, file);
}

export type Expect = 'safe' | 'unsafe' | 'any';
const EXPECTS: readonly Expect[] = ['safe', 'unsafe', 'any'];
const FIELDS = ['backend', 'resource', 'nemesis', 'expect', 'useful', 'kinds', 'note'] as const;
const PATTERN_FIELDS = ['backend', 'resource', 'nemesis'] as const;

export interface Expectation {
  /** 1-based position in the file: how messages name it. */
  index: number;
  backend: string[] | null;
  resource: string[] | null;
  nemesis: string[] | null;
  expect: Expect;
  useful: boolean;
  kinds: string[];
  note: string | null;
  /** The entry as one line of JSON, as written. */
  text: string;
}

export interface CellAxes {
  backend: string;
  /** The row's label (`backend`, or `client@backend` with --lock-clients): what a `backend` pattern is matched against. */
  lock?: string;
  resource: string;
  nemesis: string;
}

export function parseExpectations(text: string, file: string): Expectation[] {
  let json: unknown;
  try {
    json = parseStrictJson(text);
  } catch (err) {
    throw new UsageError(`Expected \`--expect\` ${file} to be JSON, found a syntax error (${(err as Error).message})`, HINT);
  }
  // Nesting deep enough to overflow the stack of JSON.stringify (an entry's text) is refused before any of it is used.
  const deep = jsonTextProblem(text, MAX_DEPTH, { numbers: false });
  if (deep !== null)
    throw new UsageError(`Expected \`--expect\` ${file} to be expectations, found ${deep.found} at character ${deep.offset + 1} (${deep.expected})`, HINT);
  if (!Array.isArray(json)) throw new UsageError(`Expected \`--expect\` ${file} to be a JSON array of expectations, got ${kindOf(json)}`, HINT);
  // An empty list would pass every matrix: "all 0 expectations met" on an unsafe one.
  if (json.length === 0) throw new UsageError(`Expected \`--expect\` ${file} to hold at least one expectation, got an empty array`, HINT);
  return json.map((entry: unknown, i) => parseEntry(entry, `entry ${i + 1} of ${file}`, i + 1));
}

const HINT = 'See docs/ci.md: e.g. [{ "resource": "fence-claim", "expect": "safe" }, { "resource": "none", "expect": "unsafe" }].';

function parseEntry(entry: unknown, where: string, index: number): Expectation {
  const fail = (what: string, got: unknown): never => {
    throw new UsageError(`Expected ${what} in ${where}, got \`${shortJson(got)}\``, HINT);
  };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail('an object', entry);
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!(FIELDS as readonly string[]).includes(key)) fail(`only the fields ${FIELDS.join(', ')}`, key);
  if (!(EXPECTS as readonly unknown[]).includes(e['expect'])) fail(`\`expect\` to be one of ${EXPECTS.join(', ')}`, e['expect']);
  const expect = e['expect'] as Expect;
  const patterns = (field: (typeof PATTERN_FIELDS)[number]): string[] | null => {
    const v = e[field];
    if (v === undefined) return null;
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p !== ''))
      return fail(`\`${field}\` to be a pattern or a list of patterns`, v);
    return list as string[];
  };
  const useful = e['useful'] ?? false;
  if (typeof useful !== 'boolean') fail('`useful` to be true or false', useful);
  if (useful === true && expect !== 'safe') fail('`useful` only with "expect": "safe"', e);
  const kinds = e['kinds'] ?? [];
  if (!Array.isArray(kinds) || !kinds.every((k) => typeof k === 'string')) fail('`kinds` to be a list of anomaly kinds', kinds);
  if ((kinds as string[]).length > 0 && expect !== 'unsafe') fail('`kinds` only with "expect": "unsafe"', e);
  const note = e['note'] ?? null;
  if (note !== null && typeof note !== 'string') fail('`note` to be a string', note);
  return {
    index,
    backend: patterns('backend'),
    resource: patterns('resource'),
    nemesis: patterns('nemesis'),
    expect,
    useful: useful as boolean,
    kinds: kinds as string[],
    note: note as string | null,
    text: JSON.stringify(entry),
  };
}

/** Whether an expectation names a cell: every given field matches one of its patterns. */
export function matchesCell(e: Expectation, cell: CellAxes): boolean {
  // `backend` names a row: `redis` is the built-in client's, `*@redis` the other clients' on redis.
  const value = (f: (typeof PATTERN_FIELDS)[number]): string => (f === 'backend' ? (cell.lock ?? cell.backend) : cell[f]);
  return PATTERN_FIELDS.every((f) => e[f] === null || e[f]!.some((p) => wildcardMatch(p, value(f))));
}

/**
 * Whether `text` matches `pattern`, where `*` matches any run of characters
 * and everything else is literal. Greedy, without backtracking past the last
 * star: each literal piece between stars is taken at its first occurrence,
 * which is always as good as a later one. Linear in the two lengths (a regular
 * expression of 50,000 `.*` backtracks exponentially).
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === text;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/** A value as an error quotes it: JSON cut at 80 characters (an entry may be a megabyte). */
function shortJson(x: unknown): string {
  const text = JSON.stringify(x) ?? String(x);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function kindOf(x: unknown): string {
  return x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x === 'object' ? 'an object' : `a ${typeof x}`;
}
