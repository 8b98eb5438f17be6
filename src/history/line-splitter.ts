/**
 * Splits text chunks into lines for the line-oriented history formats (JSON
 * Lines, the Jepsen etcd log, the Porcupine kv log), and holds their one rule
 * of line framing.
 *
 * Why not `readline`: it hides whether the file's last line ended with a
 * newline, and that is exactly how an interrupted run shows (the writer ends
 * every op with `\n`, so a last line without one was cut mid-write). It also
 * emits one event per line; one native `split` per chunk is several times
 * faster, and lines come out in batches so a parser never awaits per line.
 *
 * Line framing: a line ends at LF, and a CR just before that LF is dropped
 * with it (CRLF). Every other character that some reader ends a line at is
 * refused where it stands, outside a string: a CR not followed by LF, VT, FF,
 * NEL (U+0085), LS (U+2028) and PS (U+2029), Unicode's mandatory breaks, and
 * the separators FS, GS and RS (U+001C to U+001E), at which Python's
 * `splitlines` breaks. Why refuse and not split there: the formats are defined
 * by LF, and a file whose lines another tool splits elsewhere is one whose ops
 * differ between the tools; an etcd log line with an op after a bare CR lost
 * the first op silently (its pattern matched the second), and a contradicting
 * read vanished with it. Inside a `"…"` string (JSON's and EDN's, escapes
 * skipped) the character is the string's own: JSON and EDN allow LS, PS and
 * NEL there, and JSON.stringify writes them raw. After an EDN comment's `;`
 * nothing is a string, as the comment runs to the line's end.
 *
 * The check costs one native search per character kind on each chunk; only a
 * chunk holding one of them (or a CRLF file's CRs, one search each) is looked
 * at line by line.
 */
import { ParseError } from '../../core/errors.js';

export interface LineBatch {
  /** 1-based line number of `lines[0]`. */
  firstLine: number;
  /** The lines, without `\n` or a trailing `\r`. */
  lines: string[];
  /** Set on the last batch when the file does not end with a newline: its last line may be cut short. */
  unterminatedTail: boolean;
  /** The line after the last of `lines` holds a stray line terminator: parse `lines`, then throw this. */
  refused?: ParseError;
}

/** What a stray line terminator's error expects (read-history.ts keeps its hint free of the format advice). */
export const LINE_END_EXPECTED = 'every line ended by LF or CRLF, and no other line terminator outside a string';

// Those found with one indexOf each; the CR is checked apart, as CRLF is allowed.
const OTHER_TERMINATORS = ['\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'];
const ANY_TERMINATOR = /[\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
const NAMES: ReadonlyMap<number, string> = new Map([
  [0x0d, 'a carriage return (U+000D) not followed by a line feed'],
  [0x0b, 'a vertical tab (U+000B)'],
  [0x0c, 'a form feed (U+000C)'],
  [0x1c, 'a file separator (U+001C)'],
  [0x1d, 'a group separator (U+001D)'],
  [0x1e, 'a record separator (U+001E)'],
  [0x85, 'a next-line character (U+0085)'],
  [0x2028, 'a line separator (U+2028)'],
  [0x2029, 'a paragraph separator (U+2029)'],
]);
const HINT =
  'One op per line, lines ended by LF (or CRLF): a reader that ends lines at this character would see other ops than fencecheck, so the file is refused. ' +
  "If the file's lines end in CR alone, convert them (tr '\\r' '\\n' < in > out); inside a string the character may stay (docs/history.md, \"Line framing\").";

export class LineSplitter {
  private rest = '';
  private next = 1;

  /** `file` is named in the error for a stray line terminator. */
  constructor(private readonly file: string) {}

  /** The lines completed by `chunk`, or null if none is. */
  push(chunk: string): LineBatch | null {
    const text = this.rest + chunk;
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    return this.batch(lines, false, mayHoldStray(text));
  }

  /** The last line when the input did not end with a newline, or null. */
  end(): LineBatch | null {
    const rest = this.rest;
    this.rest = '';
    return rest === '' ? null : this.batch([rest], true, ANY_TERMINATOR.test(rest));
  }

  private batch(lines: string[], unterminatedTail: boolean, suspect: boolean): LineBatch | null {
    if (lines.length === 0) return null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
    }
    const firstLine = this.next;
    this.next += lines.length;
    if (suspect) {
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as string;
        const at = ANY_TERMINATOR.test(line) ? strayOffset(line) : -1;
        if (at < 0) continue;
        const refused = new ParseError(
          { file: this.file, line: firstLine + i, column: at + 1 },
          LINE_END_EXPECTED,
          NAMES.get(line.charCodeAt(at)) as string,
          HINT,
        );
        return { firstLine, lines: lines.slice(0, i), unterminatedTail: false, refused };
      }
    }
    return { firstLine, lines, unterminatedTail };
  }
}

/**
 * Whether `text` may hold a stray line terminator: one of the other kinds, or
 * a CR before anything but LF (a CR that ends the text may be a CRLF cut by
 * the chunk: it belongs to the unfinished line, looked at with the next chunk).
 */
function mayHoldStray(text: string): boolean {
  for (const t of OTHER_TERMINATORS) if (text.indexOf(t) >= 0) return true;
  for (let i = text.indexOf('\r'); i >= 0 && i + 1 < text.length; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) !== 10) return true;
  }
  return false;
}

function isTerminator(c: number): boolean {
  return c === 0x0d || c === 0x0b || c === 0x0c || (c >= 0x1c && c <= 0x1e) || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** 0-based offset of the first line terminator of `line` (its CRLF's CR already dropped) outside a string, or -1. */
export function strayOffset(line: string): number {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (isTerminator(c)) {
      if (!inString) return i;
    } else if (c === 0x22) {
      inString = !inString;
    } else if (c === 0x5c) {
      // An escape in a string, a character literal (EDN's `\"`) outside one; never one that would hide a terminator.
      if (!isTerminator(line.charCodeAt(i + 1))) i++;
    } else if (c === 0x3b && !inString) {
      // An EDN comment: it ends at the line's end, so a terminator in it would end it early for another reader.
      for (let j = i + 1; j < line.length; j++) if (isTerminator(line.charCodeAt(j))) return j;
      return -1;
    }
  }
  return -1;
}
