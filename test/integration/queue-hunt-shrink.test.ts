/**
 * Integration (real Redis and PostgreSQL, root), the built CLI as a user starts it: a queue run given its
 * windows (`--script`: one BullMQ worker stalled 4 s past a 1 s lock) runs exactly those windows and fails with
 * jobs done twice; `shrink` of that run re-runs it on real clusters, two slots at once, and ends with a smaller
 * plan that still fails, its replay carrying the windows (seen: one worker is enough with BullMQ, whose stalled
 * worker, once it wakes, takes its own job again after the stall check moved it back); `hunt --workload queue` runs its tries in two slots at
 * once and writes hunt.json with each try's verdict. Nothing is left behind (no state file of any slot).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultStateFile, projectRoot } from '../../runtime/hosts/paths.js';
import { cliChildren } from './cli-children.js';

const results = mkdtempSync(join(projectRoot(), 'results', 'test-queue-hunt-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));
// Registered after the results' removal: vitest runs after-hooks last-registered first, so the children end first.
const cli = cliChildren();

const TARGET = ['--workload', 'queue', '--backend', 'redis', '--client', 'bullmq', '--resource', 'none'];
const SCRIPT = [{ atMs: 1000, durationMs: 4000, fault: 'pause' }];

describe('hunt and shrink on a job queue', () => {
  it('a scripted stall fails, and its shrink ends smaller and still failing', async () => {
    const run = await cli(
      ['run', ...TARGET, '--nemesis', 'client-pause', '--script', JSON.stringify(SCRIPT), '--time-limit', '6', '--clients', '3'].concat([
        '--ttl-ms',
        '1000',
        '--recover-ms',
        '2000',
        '--seed',
        '3',
        '--results',
        join(results, 'run'),
        '--busy-timeout-ms',
        '90000',
      ]),
    );
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    expect(run.stdout).toMatch(/jobs done twice or more/);
    const runDir = /^run: (.*)$/m.exec(run.stdout)![1]!;
    expect(JSON.parse(readFileSync(join(runDir, 'plan.json'), 'utf8')).stalls).toEqual(SCRIPT);
    expect(run.stdout).toContain(`--script '${JSON.stringify(SCRIPT)}'`);

    const shrink = await cli([
      'shrink',
      runDir,
      '--runs',
      '2',
      '--min-fails',
      '1',
      '--max-candidates',
      '2',
      '--parallel',
      '2',
      '--results',
      join(results, 'shrink'),
    ]);
    expect(shrink.code, shrink.stderr.slice(-3000)).toBe(1);
    expect(shrink.stdout).toMatch(/^shrunk to 1 fault window \(pause \d+ ms\), [1-3] workers?, \d+ s; reproduced [12]\/[12] /m);
    expect(shrink.stdout).toMatch(/^replay: fencecheck run --workload queue .*--script '\[\{"atMs":\d+,"durationMs":\d+,"fault":"pause"\}\]'/m);
    const json = JSON.parse(readFileSync(/^shrink: (.*shrink\.json)$/m.exec(shrink.stdout)![1]!, 'utf8'));
    expect(json.workload).toBe('queue');
    expect(json.signs).toContain('duplicated');
    // At most two candidates, each decided on real re-runs: the steps kept are those that still failed.
    expect(json.steps.length).toBeLessThanOrEqual(2);
    expect(json.reproduced.fails).toBeGreaterThanOrEqual(1);
  });

  it('a queue hunt runs its tries two at a time and records each verdict', async () => {
    const hunt = await cli([
      'hunt',
      ...TARGET,
      '--faults',
      'client-pause',
      '--budget-runs',
      '2',
      '--keep-going',
      '--no-shrink',
      '--parallel',
      '2',
      '--time-limit',
      '6',
      '--clients',
      '2',
      '--ttl-ms',
      '1000',
      '--seed',
      '5',
      '--results',
      join(results, 'hunt'),
    ]);
    expect([0, 1, 3], hunt.stderr.slice(-3000)).toContain(hunt.code);
    expect(hunt.stderr).toMatch(/hunt: try 1 \(lane [12]\): client-pause \d+ ms windows/);
    expect(hunt.stderr).toMatch(/cluster: slot [1-9] \(slot 0 is another command's\)/);
    const json = JSON.parse(readFileSync(/^hunt: (.*hunt\.json)$/m.exec(hunt.stdout)![1]!, 'utf8'));
    expect(json.workload).toBe('queue');
    expect(json.tries).toHaveLength(2);
    for (const t of json.tries) {
      expect(['safe', 'unsafe', 'untested']).toContain(t.outcome);
      expect(existsSync(join(t.runDir, 'results.json'))).toBe(true);
    }
    expect(json.exitCode).toBe(hunt.code);
    for (let s = 0; s < 4; s++) expect(existsSync(defaultStateFile(s)), `slot ${s}'s state file`).toBe(false);
  });
});
