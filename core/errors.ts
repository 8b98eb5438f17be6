/**
 * Typed tool failures (the third of Jepsen's three channels: operation outcomes
 * and verdicts are data; a failure of the tool itself is an exception).
 *
 * Every error carries a stable `code`, the facts, and a `hint` that says what to
 * do next. The CLI prints `message` and `Hint: …` and maps the error to an exit
 * code; it never prints a stack trace for a FencecheckError.
 */
import { oneLine } from './printable.js';

/**
 * Exit codes, as Jepsen: 0 valid, 1 invalid, 2 unknown, 254 bad arguments or input, 255 the tool crashed; and
 * 3 untested: every checker said valid but nothing showed the danger occurred (no fault struck, the lock never
 * failed), so the run is no evidence of safety and must not pass a script's `&&` as one.
 */
export const EXIT = { valid: 0, invalid: 1, unknown: 2, untested: 3, badInput: 254, internal: 255 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class FencecheckError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;
  constructor(code: string, message: string, opts: { hint?: string; cause?: unknown; exitCode?: ExitCode } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = opts.hint;
    this.exitCode = opts.exitCode ?? EXIT.internal;
  }
}

/** Bad command-line arguments: "Expected `--rate` to be a positive number, got `0`". Exit 254. */
export class UsageError extends FencecheckError {
  constructor(message: string, hint?: string) {
    super('usage', message, { hint, exitCode: EXIT.badInput });
  }
}

/** The hint of a ParseError that names no better one. */
export const DEFAULT_PARSE_HINT = 'Check the file format (see docs/history.md) or pass --format explicitly.';

/** Input that cannot be parsed, located at file:line:column. Exit 254. */
export class ParseError extends FencecheckError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly expected: string;
  readonly found: string;
  constructor(loc: { file: string; line: number; column: number }, expected: string, found: string, hint?: string) {
    super('parse', `${loc.file}:${loc.line}:${loc.column}: expected ${expected}, found ${found}`, {
      hint: hint ?? DEFAULT_PARSE_HINT,
      exitCode: EXIT.badInput,
    });
    this.file = loc.file;
    this.line = loc.line;
    this.column = loc.column;
    this.expected = expected;
    this.found = found;
  }
}

/**
 * The errors whose message is several lines by construction (a command, the log's last lines below it);
 * every other message is one line, and a newline in it came from input (a flag's value, a file name).
 */
const MULTILINE_CODES: ReadonlySet<string> = new Set(['cluster-start', 'command', 'run-failed']);

/**
 * Print a FencecheckError for a person: the message and its hint, no stack. Input inside a message must
 * not print a line of its own (src/printable.ts): a one-line message is kept to one line, and a line that
 * follows the first in a many-line message or hint is indented.
 */
export function formatError(err: FencecheckError): string {
  const message = MULTILINE_CODES.has(err.code) ? continuationsIndented(err.message) : oneLine(err.message);
  return err.hint ? `${message}\nHint: ${continuationsIndented(err.hint)}` : message;
}

function continuationsIndented(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return [oneLine(first), ...rest.map((l) => (/^\s/.test(l) ? oneLine(l) : `  ${oneLine(l)}`))].join('\n');
}
