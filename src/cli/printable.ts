/**
 * Text from a history (values, keys, file names, the line a parse error
 * quotes) is data, and data must not drive the terminal: an escape sequence in
 * a value could recolour, retitle or rewrite what the user reads. Everything
 * the CLI prints from a history goes through `printable`, which spells the C0
 * controls (except newline and tab), DEL and the C1 controls as `\u00XX`.
 *
 * The same spelling keeps JSON output valid: JSON.stringify already escapes
 * C0 inside strings, and C1 or DEL can only occur inside strings, where
 * `\u00XX` means the same character.
 */

// C0 but \t and \n, then DEL and C1; also the Unicode line and paragraph separators some terminals break on.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The text with every control character but newline and tab spelled `\u00XX`. */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeChar);
}

/** A JSON document with the controls JSON.stringify leaves raw (DEL, C1) escaped; still the same JSON. */
export const printableJson: (json: string) => string = printable;

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
