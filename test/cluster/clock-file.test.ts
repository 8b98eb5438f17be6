import { madeTempDir } from '../support/temp-dirs.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOCK_FILE_BYTES, createClockFile, decodeClockOffset, encodeClockOffset, readClockOffset, writeClockOffset } from '../../runtime/hosts/clock-file.js';

describe('clock offset encoding', () => {
  it('round-trips positive, negative and zero offsets', () => {
    for (const ms of [0, 20_000, -20_000, 86_400_000, -1]) expect(decodeClockOffset(encodeClockOffset(ms))).toBe(ms);
  });

  it('stores the value and its complement, little-endian, as native/fc-clock.c reads them', () => {
    expect(encodeClockOffset(1).toString('hex')).toBe('0100000000000000' + 'feffffffffffffff');
  });

  it('detects a torn write', () => {
    const torn = Buffer.concat([encodeClockOffset(20_000).subarray(0, 8), encodeClockOffset(0).subarray(8)]);
    expect(decodeClockOffset(torn)).toBeUndefined();
    expect(decodeClockOffset(Buffer.alloc(4))).toBeUndefined();
    expect(() => encodeClockOffset(1.5)).toThrow(/whole milliseconds/);
  });

  it('rewrites the file in place, never changing its size', () => {
    const file = join(madeTempDir('fc-clock-'), 'n.offset');
    createClockFile(file);
    expect(readClockOffset(file)).toBe(0);
    writeClockOffset(file, -20_000);
    expect(readClockOffset(file)).toBe(-20_000);
    expect(statSync(file).size).toBe(CLOCK_FILE_BYTES);
  });
});
