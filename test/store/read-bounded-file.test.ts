/**
 * readBoundedFile: regular files only, a size bound, strict UTF-8. A FIFO
 * with no writer, /dev/zero, a directory, a socket-like device, a file past
 * the bound and invalid bytes are each refused at once (the test would time
 * out on a hang), naming what the file is.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BoundedReadError, readBoundedFile } from '../../runtime/store/read-bounded-file.js';
import { madeTempDir } from '../support/temp-dirs.js';

const dir = madeTempDir('fencecheck-bounded-');

function why(path: string, max?: number): string {
  try {
    readBoundedFile(path, max);
  } catch (err) {
    if (err instanceof BoundedReadError) return `${err.code}: ${err.why}`;
    throw err;
  }
  return 'read';
}

describe('readBoundedFile', () => {
  it('reads a regular file (a byte order mark dropped), through a link too', () => {
    writeFileSync(join(dir, 'a.json'), '\ufeff{"x": "é"}');
    symlinkSync(join(dir, 'a.json'), join(dir, 'link.json'));
    expect(readBoundedFile(join(dir, 'a.json'))).toBe('{"x": "é"}');
    expect(readBoundedFile(join(dir, 'link.json'))).toBe('{"x": "é"}');
  });

  it('refuses a FIFO without waiting for a writer, /dev/zero and /dev/null, a directory, and a link to each', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    mkdirSync(join(dir, 'sub'));
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    symlinkSync(join(dir, 'fifo'), join(dir, 'fifo-link.json'));
    expect(why(join(dir, 'fifo'))).toBe('special: is a FIFO (named pipe), not a regular file');
    expect(why(join(dir, 'fifo-link.json'))).toBe('special: is a FIFO (named pipe), not a regular file');
    expect(why('/dev/zero')).toBe('special: is a character device, not a regular file');
    expect(why(join(dir, 'zero.json'))).toBe('special: is a character device, not a regular file');
    expect(why('/dev/null')).toBe('special: is a character device, not a regular file');
    expect(why(join(dir, 'sub'))).toBe('special: is a directory, not a regular file');
  }, 5000);

  it('refuses a file past the bound, by its size and while reading (/proc files say size 0)', () => {
    writeFileSync(join(dir, 'big'), 'x'.repeat(1025));
    expect(why(join(dir, 'big'), 1024)).toMatch(/^too-large: is larger than/);
    expect(why(join(dir, 'big'), 1025)).toBe('read');
    expect(why('/proc/self/status', 16)).toMatch(/^too-large: /);
  });

  it('refuses invalid UTF-8 (two different bad bytes must not read as the same U+FFFD)', () => {
    writeFileSync(join(dir, 'bad.json'), Buffer.from([0x22, 0xff, 0x22]));
    expect(why(join(dir, 'bad.json'))).toBe('encoding: is not valid UTF-8');
  });

  it('says a missing file is ENOENT (callers read that as "the run has none")', () => {
    expect(why(join(dir, 'nope'))).toBe('ENOENT: does not exist');
  });
});
