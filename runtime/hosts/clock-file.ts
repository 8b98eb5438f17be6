/**
 * The offset file that native/fc-clock.c maps into every process started with
 * the clock library: two little-endian int64 at byte 0, the offset in ms and
 * its bitwise complement (so a reader that races a write sees a mismatch and
 * reads again). The file is only ever rewritten in place with one pwrite of
 * all 16 bytes: truncating a mapped file would kill the reader with SIGBUS.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const CLOCK_FILE_BYTES = 16;

/** The run directory's folder of offset files, one `<process>.offset` a server or client (named once: the clock fault's live half, the providers and the warm reset all find them here). */
export const CLOCK_DIR = 'clock';

/** A process's offset file under the run directory. */
export function clockFileUnder(runDir: string, name: string): string {
  return join(runDir, CLOCK_DIR, `${name}.offset`);
}

/** The 16 bytes for an offset (pure). */
export function encodeClockOffset(ms: number): Buffer {
  if (!Number.isSafeInteger(ms)) throw new RangeError(`Expected a clock offset in whole milliseconds, got \`${ms}\``);
  const buf = Buffer.alloc(CLOCK_FILE_BYTES);
  buf.writeBigInt64LE(BigInt(ms), 0);
  buf.writeBigInt64LE(~BigInt(ms), 8);
  return buf;
}

/** The offset the bytes hold, or undefined if they are torn or short (pure). */
export function decodeClockOffset(buf: Buffer): number | undefined {
  if (buf.length < CLOCK_FILE_BYTES) return undefined;
  const a = buf.readBigInt64LE(0);
  return buf.readBigInt64LE(8) === ~a ? Number(a) : undefined;
}

/** Create (or reset) a clock file with offset 0, before the process that maps it starts. */
export function createClockFile(path: string): void {
  writeClockOffset(path, 0, 'w');
}

/** Change the offset of a running process: in place, never truncating. */
export function writeClockOffset(path: string, ms: number, flags: 'r+' | 'w' = 'r+'): void {
  const fd = openSync(path, flags, 0o644);
  try {
    writeSync(fd, encodeClockOffset(ms), 0, CLOCK_FILE_BYTES, 0);
  } finally {
    closeSync(fd);
  }
}

export function readClockOffset(path: string): number | undefined {
  try {
    return decodeClockOffset(readFileSync(path));
  } catch {
    return undefined;
  }
}
