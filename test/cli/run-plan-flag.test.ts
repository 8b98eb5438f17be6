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
    const args = [
      'run',
      '--backend',
      'etcd',
      '--resource',
      'fence-claim',
      '--nemesis',
      'partition,kill',
      '--time-limit',
      '12',
      '--clients',
      '3',
      '--seed',
      '5',
      '--results',
      results,
    ];
    const r = runCli([...args, '--plan']);
    expect(r.code).toBe(0);
    expect(parsePlanJson(r.stdout, '(stdout)')).toEqual(planRun(parseRun(args)));
    expect(existsSync(results)).toBe(false);
  });

  it("aims a fault with fault@event: the seeded window waits for the event, a plain --script run compare's aimed columns make", () => {
    const args = [
      'run',
      '--backend',
      'redis',
      '--nemesis',
      'client-pause@holder-read,partition',
      '--time-limit',
      '30',
      '--ttl-ms',
      '1000',
      '--interval-ms',
      '2000',
      '--duration-ms',
      '3000',
      '--seed',
      '4',
    ];
    const options = parseRun(args);
    expect(options.nemesis).toEqual(['client-pause', 'partition']);
    const pauses = options.script!.filter((w) => w.fault === 'client-pause');
    expect(pauses.length).toBeGreaterThan(0);
    for (const w of pauses) expect(w.trigger?.on).toBe('holder-read');
    for (const w of options.script!.filter((w) => w.fault === 'partition')) expect(w.trigger).toBeUndefined();
    const r = runCli([...args, '--plan']);
    expect(r.code).toBe(0);
    expect(parsePlanJson(r.stdout, '(stdout)')).toEqual(planRun(options));
  });

  it.each([
    [['--nemesis', 'client-pause@lunch'], /lock event after `@` in `--nemesis`/],
    [['--nemesis', 'client-pause@mark'], /mark event happens only in the cas-unique modes/],
    [['--nemesis', 'client-pause@holder-read', '--script', '[]'], /either `--script` or faults aimed/],
    [['--nemesis', 'kill,kill'], /each fault at most once/],
  ])('refuses a bad aim %j with 254 and a hint', (extra, message) => {
    const r = runCli(['run', '--backend', 'redis', ...extra, '--plan']);
    expect(r.code).toBe(254);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('Hint:');
  });

  it('refuses bad options with 254, as the run would', () => {
    const r = runCli(['run', '--backend', 'redlock', '--resource', 'fence', '--plan']);
    expect(r.code).toBe(254);
    expect(r.stderr).toMatch(/Cannot run this combination/);
    expect(r.stdout).toBe('');
  });
});
