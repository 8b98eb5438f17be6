/**
 * `scenario run` with a --client whose tokens cannot serve some variants: a client whose kind fencecheck
 * knows has those variants marked not applicable up front and the rest planned; one whose kind only its
 * ready line says is refused run by run with an error the batch runner does not treat as fatal, so the
 * scenario goes on (before: a UsageError stopped the whole scenario with 254 at the fence variant).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BatchRunner, COMPARE_POLICY, SCENARIO_POLICY } from '../../src/batch/batch-runner.js';
import { ClientNotApplicableError } from '../../runtime/runner/client-command.js';
import { tokenKindExcludes } from '../../core/client-modes.js';
import { knownTokenOf, NAMED_CLIENTS, commandLine } from '../../runtime/runner/client-registry.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { MAIN } from '../cli/run-cli.js';

const quiet = { log: () => undefined, notice: () => undefined };

describe('scenario run --client and token kinds', () => {
  it('a known unique-token client: the fence variant is not applicable (said), the other is planned', () => {
    const r = spawnSync(process.execPath, [MAIN, 'scenario', 'run', 'S2', '--client', 'redis-py', '--dry-run'], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'S2/redis-fence: not applicable with this client, which announces unique tokens, and the resource mode fence needs a monotonic fencing token',
    );
    expect(r.stdout).toContain('1 runs (S2; seeds 1)');
    expect(r.stdout).toMatch(/S2\/redis-none seed 1: .*--client/);
    expect(r.stdout).not.toMatch(/S2\/redis-fence seed/);
  });

  it('knownTokenOf: every named client by its command line; an unknown command line has no known kind', () => {
    for (const c of NAMED_CLIENTS) expect(knownTokenOf(commandLine(c.argv(projectRoot())))).toBe(c.token);
    expect(knownTokenOf('/usr/bin/python3 my_client.py')).toBeUndefined();
  });

  it('a refusal from the ready line is 254 for that run and not fatal to a scenario or a comparison', async () => {
    const err = new ClientNotApplicableError(`Cannot run this combination: the client x ${tokenKindExcludes({ token: 'unique' }, 'fence')!}.`);
    expect(err.exitCode).toBe(254);
    for (const policy of [SCENARIO_POLICY, COMPARE_POLICY]) {
      const got = await new BatchRunner(policy, async () => false).attempt(async () => {
        throw err;
      }, quiet);
      expect(got).toMatchObject({ ok: false, error: expect.stringContaining('needs a monotonic fencing token') });
    }
  });
});
