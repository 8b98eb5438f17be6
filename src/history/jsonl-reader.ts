/**
 * Streaming reader of fencecheck's own history format: JSON Lines, one op per
 * line (docs/history.md). Each line is parsed and its fields checked; any
 * problem is a ParseError at file:line:column saying what was expected and
 * what was found. Blank lines are skipped.
 *
 * A run appends to history.jsonl as it goes, so a run killed mid-write leaves
 * a last line with no newline that does not parse. That is an error unless
 * the caller asks to tolerate it (then it is skipped with a warning): the ops
 * before it are still a valid, checkable history.
 */
import { ParseError } from '../../core/errors.js';
import type { ImportOptions, ValueCheck } from '../../core/history/history-warning.js';
import { jsonTextProblem, mayHoldTinyNumber, SUSPECT, valueFacts } from '../../core/history/json-text-checks.js';
import { duplicateKey } from '../../core/history/duplicate-keys.js';
import { MAX_DEPTH } from '../../core/history/read-limits.js';
import type { Op, Value } from '../../core/history/op.js';
import { describeValue, opFromRecord, type FieldFailure } from '../../core/history/op-from-record.js';
import { lineOpParser, opBatches, type OpParser } from './op-parser.js';

/** Stream the ops of a JSON Lines history. */
export async function* readJsonl(path: string, opts: ImportOptions = {}): AsyncGenerator<Op> {
  for (const batch of opBatches(path, () => jsonlParser(path, opts))) yield* batch;
}

/** A push parser of JSON Lines; `file` is named in errors. */
export function jsonlParser(file: string, opts: ImportOptions = {}): OpParser {
  return lineOpParser(file, (text, line, cutShort) => {
    try {
      return parseJsonlLine(text, file, line, opts.checkValue);
    } catch (err) {
      if (!(cutShort && err instanceof ParseError)) throw err;
      if (!opts.tolerateTruncatedTail) {
        throw new ParseError(
          { file: err.file, line: err.line, column: err.column },
          err.expected,
          `${err.found} (the last line has no newline: the run was probably interrupted mid-write)`,
          'To check the ops before it, pass --tolerate-truncated-tail (docs/history.md, "Interrupted runs").',
        );
      }
      opts.onWarning?.({ kind: 'truncated-tail', message: `${file}:${line}: skipped a truncated last line (interrupted run)`, file, line });
      return null;
    }
  });
}

/** Parse one line; null for a blank line. `checkValue` is the model's declaration of values, when one is known. */
export function parseJsonlLine(text: string, file: string, line: number, checkValue?: ValueCheck): Op | null {
  if (text.trim() === '') return null;
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch (err) {
    throw syntaxError(text, file, line, err);
  }
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) {
    const found = Array.isArray(rec) ? 'an array' : JSON.stringify(rec);
    throw new ParseError({ file, line, column: firstNonBlank(text) }, 'a JSON object (one op per line)', found);
  }
  // A line shorter than the depth limit cannot nest past it; the text is scanned only when it could (before the walk,
  // which recurses as deep as the value nests).
  if (text.length > MAX_DEPTH) throwTextProblem(text, file, line);
  const facts = valueFacts(rec);
  if (text.length <= MAX_DEPTH && (facts.suspect === SUSPECT.big || (facts.suspect === SUSPECT.tiny && mayHoldTinyNumber(text))))
    throwTextProblem(text, file, line);
  // JSON.parse keeps the last of two equal keys: a line that says two things is refused, not read as its last.
  const dup = duplicateKey(text, facts);
  if (dup !== null) {
    throw new ParseError(
      { file, line, column: dup.offset + 1 },
      `each key once in an object (\`${dup.key}\` first at column ${dup.firstOffset + 1})`,
      `\`${dup.key}\` again`,
    );
  }
  const fail: FieldFailure = (key, expected, found) => {
    throw new ParseError({ file, line, column: jsonValueColumn(text, key) }, `\`${key}\` to be ${expected}`, found);
  };
  const op = opFromRecord(rec as { [key: string]: Value }, {}, fail);
  const expected = checkValue?.(op);
  if (expected) fail('value', `${expected} (${op.type} ${op.f})`, describeValue(op.value));
  return op;
}

function throwTextProblem(text: string, file: string, line: number): void {
  const problem = jsonTextProblem(text);
  if (problem !== null) throw new ParseError({ file, line, column: problem.offset + 1 }, problem.expected, problem.found);
}

// JSON.parse says where it stopped only in its message ("... in JSON at position 7").
function syntaxError(text: string, file: string, line: number, err: unknown): ParseError {
  const message = err instanceof Error ? err.message : String(err);
  const at = /at position (\d+)/.exec(message);
  const pos = at ? Number(at[1]) : text.length;
  const reason = message.replace(/\s*in JSON at position \d+.*$/, '').replace(/^Unexpected end of JSON input$/, 'Unexpected end');
  const found = pos >= text.length ? 'end of line' : `\`${text.charAt(pos)}\``;
  return new ParseError({ file, line, column: pos + 1 }, `valid JSON (${reason})`, found);
}

function firstNonBlank(text: string): number {
  return text.length - text.trimStart().length + 1;
}

/**
 * 1-based column of the value of top-level `key` in a JSON object line (the
 * last occurrence, as JSON.parse keeps the last), or 1 when it is absent.
 * Only runs on the error path, so it may re-scan the line.
 */
export function jsonValueColumn(text: string, key: string): number {
  let depth = 0;
  let column = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x22) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      if (depth !== 1) continue;
      let j = skipBlanks(text, i + 1);
      if (text.charCodeAt(j) !== 0x3a || JSON.parse(text.slice(start, i + 1)) !== key) continue;
      j = skipBlanks(text, j + 1);
      column = j + 1;
    }
  }
  return column;
}

function skipBlanks(text: string, i: number): number {
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  return i;
}
