/**
 * Reading a run directory for a report: what is required (a history), what
 * may be missing (test.json, results.json), tolerated accidents (a cut last
 * line), typed errors with exit 254 for bad input; and the two ways data
 * enters HTML (escaped text, JSON inside a script element).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, FencecheckError, UsageError } from '../../core/errors.js';
import { escapeHtml, jsonForScript } from '../../src/report/html-text.js';
import { readRunDir } from '../../src/report/read-run-dir.js';
import { parseResultsJson } from '../../core/run-files/results-json.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { tempDir } from './temp-run.js';

const OP = '{"index":0,"time":5,"process":0,"type":"invoke","f":"acquire","value":null}';

function runDir(files: Record<string, string>): string {
  const dir = join(tempDir(), 'run');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('readRunDir', () => {
  it('reads a run with only a history; test.json and results.json may be missing', async () => {
    const run = await readRunDir(runDir({ 'history.jsonl': `${OP}\n` }));
    expect(run.history).toHaveLength(1);
    expect([run.test, run.results]).toEqual([null, null]);
  });

  it('tolerates a last line cut by a kill, with a warning for the page', async () => {
    const run = await readRunDir(runDir({ 'history.jsonl': `${OP}\n{"index":1,"ti` }));
    expect(run.history).toHaveLength(1);
    expect(run.warnings.map((w) => w.kind)).toEqual(['truncated-tail']);
  });

  it('says what is wrong with a directory that is not a run', async () => {
    await expect(readRunDir('/nonexistent/run')).rejects.toThrow(UsageError);
    const err = await readRunDir(runDir({ 'test.json': '{}' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FencecheckError);
    expect(err).toMatchObject({ exitCode: EXIT.badInput, message: expect.stringContaining('has no history.jsonl') });
  });

  it('names the bad field of a results.json', async () => {
    const bad = (results: unknown) => readRunDir(runDir({ 'history.jsonl': `${OP}\n`, 'results.json': JSON.stringify(results) })).catch((e: unknown) => e);
    expect(await bad({ valid: 'maybe', checkers: [] })).toMatchObject({
      message: expect.stringContaining('expected `valid` to be true, false or "unknown", found "maybe"'),
      exitCode: EXIT.badInput,
    });
    expect(await bad({ valid: false, checkers: [{ checker: 'c', valid: false, anomalies: [{ kind: 'k', opIndexes: [1, 'x'] }] }] })).toMatchObject({
      message: expect.stringContaining('`checkers[0].anomalies[0].opIndexes` to be an array of op indexes'),
    });
    expect(
      await bad({ valid: false, checkers: [{ checker: 'c', valid: false, anomalies: [{ kind: 'k', witness: { prefix: [1], op: 2, state: 'held' } }] }] }),
    ).toMatchObject({
      message: expect.stringContaining('`checkers[0].anomalies[0].witness.reason` to be a string'),
    });
    expect(() => parseResultsJson('{', 'results.json')).toThrow(RunFileError);
  });
});

describe('HTML text', () => {
  it('escapes text for elements and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('writes JSON with no raw < > & that parses back to the same value', () => {
    const value = { s: '</script><!-- & \u2028', n: [1, null] };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
