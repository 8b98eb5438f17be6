/**
 * Splits text chunks into lines for the line-oriented history formats.
 *
 * Why not `readline`: it hides whether the file's last line ended with a
 * newline, and that is exactly how an interrupted run shows (the writer ends
 * every op with `\n`, so a last line without one was cut mid-write). It also
 * emits one event per line; one native `split` per chunk is several times
 * faster, and lines come out in batches so a parser never awaits per line.
 */

export interface LineBatch {
  /** 1-based line number of `lines[0]`. */
  firstLine: number;
  /** The lines, without `\n` or a trailing `\r`. */
  lines: string[];
  /** Set on the last batch when the file does not end with a newline: its last line may be cut short. */
  unterminatedTail: boolean;
}

export class LineSplitter {
  private rest = '';
  private next = 1;

  /** The lines completed by `chunk`, or null if none is. */
  push(chunk: string): LineBatch | null {
    const lines = (this.rest + chunk).split('\n');
    this.rest = lines.pop() ?? '';
    return this.batch(lines, false);
  }

  /** The last line when the input did not end with a newline, or null. */
  end(): LineBatch | null {
    const rest = this.rest;
    this.rest = '';
    return rest === '' ? null : this.batch([rest], true);
  }

  private batch(lines: string[], unterminatedTail: boolean): LineBatch | null {
    if (lines.length === 0) return null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
    }
    const firstLine = this.next;
    this.next += lines.length;
    return { firstLine, lines, unterminatedTail };
  }
}
