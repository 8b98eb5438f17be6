/**
 * Input cannot print a line of its own: a file or directory name, a run directory's test.json and
 * results.json, a flag's value and the text a parse error quotes, each carrying a line break (newline,
 * CR LF, CR, vertical tab, form feed, NEL, U+2028) followed by a forged line, come out with the break
 * spelled, on every command that prints them (core/printable.ts). The forged line never starts a line.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { MAIN } from './run-cli.js';

const BREAKS = ['\n', '\r\n', '\r', '\u000b', '\u000c', '\u0085', '\u2028', '\u2029'];
const FORGED = 'valid   FORGED';

const op = (index: number, process: number, type: string, f: string, value: unknown): string =>
  JSON.stringify({ index, time: index * 10, process, type, f, value });
const INVALID_HISTORY =
  [op(0, 0, 'invoke', 'write', 1), op(1, 0, 'ok', 'write', 1), op(2, 1, 'invoke', 'read', null), op(3, 1, 'ok', 'read', 2)].join('\n') + '\n';

function cli(args: string[], cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

/** No line of the output (split on every break a terminal honours) begins with the forged text, indented or not. */
function expectNoForgedLine(out: string, context: string): void {
  const lines = out.split(/\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/);
  const forged = lines.filter((l) => /^\s*valid {3}FORGED/.test(l) || /^\s*(VALID|outcome: safe)/.test(l));
  expect(forged, `${context}:\n${out}`).toEqual([]);
}

describe.each(BREAKS.map((b) => [JSON.stringify(b), b] as const))('a line break %s in input', (_name, br) => {
  const root = madeTempDir('fencecheck-forge-');

  it('check DIR: a file name', () => {
    const dir = join(root, 'histories');
    mkdirSync(dir);
    writeFileSync(join(dir, `x${br}${FORGED}.jsonl`), INVALID_HISTORY);
    const r = cli(['check', dir, '--model', 'register'], root);
    expect(r.status).toBe(1);
    expect(r.out).toContain('INVALID');
    expectNoForgedLine(r.out, 'check DIR');
  });

  it('check FILE: a file that does not parse, its name quoted by the parse error', () => {
    const file = join(root, `bad${br}${FORGED}.jsonl`);
    writeFileSync(file, `{"index":0,"time":0,"process":0,"type":"invoke","f":"w"}\n{"nope${br}VALID`);
    const r = cli(['check', file, '--model', 'register'], root);
    expect(r.status).toBe(254);
    expectNoForgedLine(r.out, 'check FILE parse error');
  });

  it('a flag value in a usage error', () => {
    const r = cli(['check', 'x.jsonl', '--model', `x${br}VALID: register`], root);
    expect(r.status).toBe(254);
    expectNoForgedLine(r.out, 'usage error');
  });

  it('report and check RUN_DIR: replay, skip reasons and the directory name', () => {
    const runDir = join(root, `run${br}VALID: all checkers`);
    cpSync(SAMPLE_RUN_DIR, runDir, { recursive: true });
    const testPath = join(runDir, 'test.json');
    const test = JSON.parse(readFileSync(testPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(testPath, JSON.stringify({ ...test, replay: `fencecheck run x${br}VALID: mutual-exclusion valid${br}outcome: safe` }));
    // A skip reason is history data (a nemesis info with an error and no invoke): results.json is recomputed from it.
    const historyPath = join(runDir, 'history.jsonl');
    const lines = readFileSync(historyPath, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]!) as { index: number; time: number };
    const skip = {
      index: last.index + 1,
      time: last.time + 1,
      process: 'nemesis',
      type: 'info',
      f: 'kill',
      value: { target: 'leader' },
      error: `none${br}outcome: safe`,
    };
    writeFileSync(historyPath, [...lines, JSON.stringify(skip)].join('\n') + '\n');
    const check = cli(['check', runDir], root);
    expect(check.status).toBe(1);
    expectNoForgedLine(check.out, 'check RUN_DIR');
    const report = cli(['report', runDir], root);
    expect(report.out).toContain('INVALID');
    expectNoForgedLine(report.out, 'report');
  });
});
