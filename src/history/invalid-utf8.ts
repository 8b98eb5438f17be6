/**
 * Where a history's bytes stop being UTF-8, for the error that refuses it.
 *
 * Why refuse and not replace: a lenient decoder turns every invalid sequence
 * into the same U+FFFD, so a write of byte 0xff and a read of byte 0xfe
 * compare equal and an invalid history reads as valid. The reader decodes
 * strictly (TextDecoder with fatal: true, read-chunks.ts) and, only when that
 * throws, reads the file again up to the bad bytes with this validator (the
 * WHATWG rules: no overlong forms, no surrogates, nothing past U+10FFFF) to
 * name their line and column.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { ParseError } from '../../core/errors.js';

export interface Utf8Problem {
  /** 1-based line and column (in UTF-16 units, as every other column) of the first byte of the bad sequence. */
  line: number;
  column: number;
  /** The bad sequence's bytes (its lead byte and any continuation bytes seen before it broke). */
  bytes: number[];
}

/**
 * A streaming UTF-8 validator that tracks line and column. `push` returns the
 * first problem in the bytes so far, or null; `end` reports a sequence cut by
 * the end of the input.
 */
export class Utf8Scanner {
  private line = 1;
  private column = 1;
  /** The sequence being read: its bytes so far, how many it needs in all, and the range of its second byte. */
  private seq: number[] = [];
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private startLine = 1;
  private startColumn = 1;

  push(bytes: Uint8Array): Utf8Problem | null {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (this.need > 0) {
        if (b < this.lo || b > this.hi) return this.problem();
        this.seq.push(b);
        this.lo = 0x80;
        this.hi = 0xbf;
        if (this.seq.length === this.need) this.complete();
        continue;
      }
      if (b < 0x80) {
        if (b === 0x0a) {
          this.line++;
          this.column = 1;
        } else this.column++;
        continue;
      }
      this.startLine = this.line;
      this.startColumn = this.column;
      this.seq = [b];
      if (!this.lead(b)) return this.problem();
    }
    return null;
  }

  end(): Utf8Problem | null {
    return this.need > 0 ? this.problem() : null;
  }

  // Sets what a lead byte needs after it; false when it cannot start a sequence.
  private lead(b: number): boolean {
    if (b >= 0xc2 && b <= 0xdf) return this.expect(2, 0x80, 0xbf);
    if (b === 0xe0) return this.expect(3, 0xa0, 0xbf); // below: overlong
    if (b === 0xed) return this.expect(3, 0x80, 0x9f); // above: a UTF-16 surrogate
    if (b >= 0xe1 && b <= 0xef) return this.expect(3, 0x80, 0xbf);
    if (b === 0xf0) return this.expect(4, 0x90, 0xbf); // below: overlong
    if (b >= 0xf1 && b <= 0xf3) return this.expect(4, 0x80, 0xbf);
    if (b === 0xf4) return this.expect(4, 0x80, 0x8f); // above: past U+10FFFF
    return false;
  }

  private expect(need: number, lo: number, hi: number): boolean {
    this.need = need;
    this.lo = lo;
    this.hi = hi;
    return true;
  }

  private complete(): void {
    // A four-byte sequence is a code point past U+FFFF: two UTF-16 units.
    this.column += this.need === 4 ? 2 : 1;
    this.need = 0;
  }

  private problem(): Utf8Problem {
    return { line: this.startLine, column: this.startColumn, bytes: this.seq };
  }
}

/** What a ParseError for bytes that are not UTF-8 expected. */
export const UTF8_EXPECTED = 'UTF-8 text';

/** The ParseError for a file that a strict decoder refused: reads it again to find the bad bytes (error path only). */
export function invalidUtf8Error(path: string): ParseError {
  const problem = locateInvalidUtf8(path);
  const at = problem ?? { line: 1, column: 1, bytes: [] };
  const bytes = at.bytes.map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(' ');
  return new ParseError(
    { file: path, ...at },
    UTF8_EXPECTED,
    bytes === '' ? 'bytes that are not UTF-8' : `the byte${at.bytes.length > 1 ? 's' : ''} ${bytes}, which ${at.bytes.length > 1 ? 'are' : 'is'} not UTF-8`,
    'A history must be UTF-8: bytes that are not would all read as the same U+FFFD and compare equal. Convert the file (e.g. iconv -f LATIN1 -t UTF-8) or fix the recorder that wrote it.',
  );
}

function locateInvalidUtf8(path: string): Utf8Problem | null {
  const fd = openSync(path, 'r');
  try {
    const scanner = new Utf8Scanner();
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) {
      const problem = scanner.push(buf.subarray(0, n));
      if (problem !== null) return problem;
    }
    return scanner.end();
  } finally {
    closeSync(fd);
  }
}
