/**
 * Test helpers: history files written to a fresh temporary directory (removed
 * after the test file), and an assertion on a ParseError's exact location.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ParseError } from '../../core/errors.js';

const dir = madeTempDir('fencecheck-history-');

/** Write `content` to a new file named `name` and return its path. */
export function tempFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

export interface ParseErrorFacts {
  line: number;
  column: number;
  expected: string;
  found: string;
}

/** Assert that `run` throws (or rejects with) a ParseError at exactly `facts`, in `file`. */
export async function expectParseError(run: () => unknown, file: string, facts: ParseErrorFacts): Promise<ParseError> {
  let caught: unknown;
  try {
    await run();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ParseError);
  const err = caught as ParseError;
  expect({ file: err.file, line: err.line, column: err.column, expected: err.expected, found: err.found }).toEqual({ file, ...facts });
  expect(err.message).toBe(`${file}:${facts.line}:${facts.column}: expected ${facts.expected}, found ${facts.found}`);
  expect(err.exitCode).toBe(254);
  return err;
}
