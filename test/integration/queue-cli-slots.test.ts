/**
 * Integration (real Redis, root): two `fencecheck run --workload queue` commands started at once each
 * take a slot of their own (the lowest free one), never the same one, and both end with a verdict; then
 * nothing of either is left (no namespace, no state file of theirs). The commands are the built CLI as a
 * user starts it; a command still running when the test ends (a failure) is interrupted (SIGINT: it tears
 * its cluster down) and, failing that, killed, and the next start reclaims what it left.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultStateFile, projectRoot } from '../../runtime/hosts/paths.js';
import { cliChildren, type CliResult } from './cli-children.js';

const results = mkdtempSync(join(projectRoot(), 'results', 'test-queue-cli-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));
// Registered after the results' removal: vitest runs after-hooks last-registered first, so the children end first.
const cli = cliChildren();

function queueCommand(name: string): Promise<CliResult> {
  const args = ['run', '--workload', 'queue', '--backend', 'redis', '--client', 'bullmq', '--resource', 'none', '--nemesis', 'client-pause'];
  args.push('--time-limit', '6', '--clients', '2', '--ttl-ms', '1500', '--interval-ms', '1500', '--duration-ms', '3000', '--recover-ms', '2000');
  args.push('--seed', '1', '--results', join(results, name), '--busy-timeout-ms', '90000');
  return cli(args);
}

/** The slot a command's cluster ran in, from its names in its log (fc-… is slot 0, fc<s>-… slot s). */
function slotOf(stderr: string): number {
  const said = /cluster: slot (\d+) \(slot 0 is another command's\)/.exec(stderr);
  return said ? Number(said[1]) : 0;
}

describe('queue commands at once', () => {
  it('each take a slot of their own and end with a verdict, leaving nothing behind', async () => {
    const [a, b] = await Promise.all([queueCommand('a'), queueCommand('b')]);
    for (const r of [a, b]) {
      // 0 safe, 1 unsafe, 3 untested: a verdict, whichever the stalls gave; never 254 (busy) or 255.
      expect([0, 1, 3], r.stderr.slice(-2000)).toContain(r.code);
      expect(r.stdout).toMatch(/^outcome: (safe|unsafe|untested)$/m);
      expect(r.stdout).toMatch(/^report: .*report\.html$/m);
    }
    const slots = [slotOf(a!.stderr), slotOf(b!.stderr)];
    expect(new Set(slots).size, `slots ${slots.join(', ')}`).toBe(2);
    for (const s of slots) expect(existsSync(defaultStateFile(s)), `slot ${s}'s state file`).toBe(false);
  });
});
