/**
 * `fencecheck hunt` and `fencecheck shrink` on bad input, as a user runs them
 * (the built CLI): 254 with the flag or directory and a hint, before any
 * cluster is started. Needs `npm run build`.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const SAMPLE = new URL('../fixtures/runs/sample-run', import.meta.url).pathname;

describe('fencecheck hunt and shrink on bad input', () => {
  it.each([
    [['hunt', '--backend', 'nope', '--resource', 'none'], /Expected `--backend` to be one of redis/],
    [
      ['hunt', '--backend', 'redis', '--resource', 'none', '--budget', '0'],
      /Expected `--budget` to be a whole number of milliseconds from 1s to 168h, got `0`[\s\S]*Hint: Give a duration from 1s to 168h/,
    ],
    [['hunt', '--backend', 'redis', '--resource', 'none', '--budget-runs', '0'], /Expected `--budget-runs` to be an integer from 1 to 100000, got `0`/],
    [['hunt', '--backend', 'redis', '--resource', 'none', '--budget', '1m', '--budget-runs', '2'], /Expected one of `--budget` and `--budget-runs`, got both/],
    [['hunt', '--backend', 'redis', '--resource', 'none', '--faults', 'gremlins'], /Expected `--faults` to list fault kinds among client-pause/],
    [
      ['hunt', '--backend', 'etcd', '--resource', 'fence-claim', '--faults', 'clock'],
      /Cannot hunt with `clock` on etcd \/ fence-claim[\s\S]*Hint: Leave that fault kind out/,
    ],
    [['hunt', '--backend', 'redlock', '--resource', 'fence'], /no monotonic fencing token/],
    [['shrink', tmpdir()], /not a run directory[\s\S]*Hint: Give the run directory/],
    [['shrink', '/nonexistent/run'], /not a run directory[\s\S]*Hint: Give the run directory/],
    [['hunt', '--resource', 'none'], /Expected `--backend`, got none[\s\S]*Hint: Name the target/],
    [['hunt', '--merge', tmpdir()], /not a hunt directory \(no hunt\.json\)[\s\S]*Hint: Give the hunt directories/],
    [['shrink', SAMPLE, '--runs', '2', '--min-fails', '3'], /Expected `--min-fails` to be at most `--runs` \(2\), got `3`/],
    [
      ['hunt', '--backend', 'redis', '--resource', 'none', '--shrink-runs', '2', '--shrink-min-fails', '3'],
      /Expected `--shrink-min-fails` to be at most `--shrink-runs` \(2\), got `3`/,
    ],
  ])('%j exits 254', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(254);
    expect(r.stderr).toMatch(message);
  });

  it('shrink refuses a run that did not fail', () => {
    const dir = madeTempDir('fc-shrink-cli-');
    cpSync(SAMPLE, dir, { recursive: true });
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ ...results, valid: true, outcome: 'safe' }));
    const r = runCli(['shrink', dir]);
    expect(r.code).toBe(254);
    expect(r.stderr).toMatch(/this run did not fail/);
  });

  it('lists both commands in the help', () => {
    const r = runCli(['--help']);
    expect(r.stdout).toMatch(/hunt \[options\]/);
    expect(r.stdout).toMatch(/shrink \[options\] <run-dir>/);
  });
});
