/** `fencecheck run --plan`: the plan printed as plan.json holds it, nothing made or started; bad options still 254. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlanJson } from '../../core/run-files/plan-json.js';
import { planRun } from '../../core/plan/run-plan.js';
import { parseRun } from '../support/parse-run.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { runCli } from './run-cli.js';

describe('run --plan', () => {
  it('prints the plan of the options given and runs nothing (no results directory, no cluster)', () => {
    const results = join(madeTempDir('fencecheck-plan-flag-'), 'results');
    const args = ['run', '--backend', 'etcd', '--resource', 'fence-claim', '--nemesis', 'partition,kill', '--time-limit', '12', '--clients', '3', '--seed', '5', '--results', results];
    const r = runCli([...args, '--plan']);
    expect(r.code).toBe(0);
    expect(parsePlanJson(r.stdout, '(stdout)')).toEqual(planRun(parseRun(args)));
    expect(existsSync(results)).toBe(false);
  });

  it('refuses bad options with 254, as the run would', () => {
    const r = runCli(['run', '--backend', 'redlock', '--resource', 'fence', '--plan']);
    expect(r.code).toBe(254);
    expect(r.stderr).toMatch(/Cannot run this combination/);
    expect(r.stdout).toBe('');
  });
});
