/**
 * Text from input (history values and keys, file and directory names, the
 * line a parse error quotes, a run directory's test.json and results.json, a
 * client's log and answers, the command line itself) is data, and data must
 * not drive the terminal or forge output: an escape sequence could recolour,
 * retitle or rewrite what the user reads, and a newline inside a file name or
 * a `replay` field could print a line of its own (`valid forged.jsonl`,
 * `VALID:`, `outcome: safe`) under the real verdict.
 *
 * Two rules, both here:
 *   - `oneLine(text)` for every slot of output that is one line: it spells
 *     every control character, newline and carriage return included, so data
 *     can never begin a line. Formatters put input through it where they
 *     place it (format-verdict.ts, format-lock-verdicts.ts, format-outcome.ts,
 *     the commands' own lines).
 *   - `printable(text)` on whole outputs as they are written: the C0 controls
 *     but newline and tab, DEL, C1 and the Unicode line separators, spelled
 *     `\u00XX`; structural newlines (those the code joined) stay.
 * Text that is many lines by nature (a server's log tail) is shown with every
 * line indented (`indentedLines`), so none of it can pass for a line of ours.
 *
 * The same spelling keeps JSON output valid: JSON.stringify already escapes
 * C0 inside strings, and C1 or DEL can only occur inside strings, where
 * `\u00XX` means the same character.
 */

// C0 but \t and \n, then DEL and C1; also the Unicode line and paragraph separators some terminals break on.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
// The same and the newline: nothing that ends or rewrites a line.
const CONTROL_OR_NEWLINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The text with every control character but newline and tab spelled `\u00XX`. */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeChar);
}

/** A JSON document with the controls JSON.stringify leaves raw (DEL, C1) escaped; still the same JSON. */
export const printableJson: (json: string) => string = printable;

/** Input for a one-line slot: every control spelled, `\n` and `\r` as those two characters, so it cannot start a line. */
export function oneLine(text: string): string {
  return text.replace(CONTROL_OR_NEWLINE, escapeChar);
}

/** Many lines of input (a log tail, a client's stderr): each made one line and indented by `indent`. */
export function indentedLines(text: string, indent: string): string {
  return text
    .split('\n')
    .map((l) => `${indent}${oneLine(l)}`)
    .join('\n');
}

function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
