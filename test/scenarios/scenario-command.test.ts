import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerScenarioCommand, listText, skippedLines } from '../../src/cli/scenario-command.js';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { UsageError } from '../../core/errors.js';
import { SCENARIOS } from '../../src/scenarios/catalogue.js';

/** `fencecheck scenario …` in process: what it wrote to stdout and stderr. */
async function scenario(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const program = new Command().exitOverride();
  registerScenarioCommand(program);
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((stdout += String(t)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((t) => ((stderr += String(t)), true));
  try {
    await program.parseAsync(['node', 'fencecheck', 'scenario', ...args]);
  } finally {
    vi.restoreAllMocks();
  }
  return { stdout, stderr };
}

afterEach(() => vi.restoreAllMocks());

describe('fencecheck scenario', () => {
  it('list: every scenario and variant, with the agreed outcome or why it does not run', async () => {
    const { stdout } = await scenario(['list']);
    expect(stdout).toBe(listText(SCENARIOS, false));
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('S1   A client pauses after acquiring, longer than the TTL');
    expect(lines[1]).toBe('       redis-none               single Redis, no fence · expected: lock unsafe, data unsafe');
    expect(stdout).toContain('       redlock-fence            not applicable: redlock issues no monotonic fencing token');
    expect(stdout).toContain('S7   Replicated Redis with Sentinel: the master dies before replicating a grant');
    expect(stdout).not.toContain('[not reproduced]');
    expect(stdout).toContain('expected: disputed');
  });

  it('list --long: claims, both predictions, setup, recipe', async () => {
    const { stdout } = await scenario(['list', '--long']);
    expect(stdout).toContain('       Kleppmann: Unsafe: two clients hold the lock at once.');
    expect(stdout).toContain('       recipe: to see Redlock grant the same lock twice after a clock jump, run `sudo npx fencecheck scenario run S3`');
    expect(stdout).toContain('       recipe: to see a lock acknowledged by a Redis master lost when Sentinel promotes a replica');
  });

  it('run refuses a variant that is not applicable (254 with the reason), not "0 runs"', async () => {
    await expect(scenario(['run', 'S1', '--variant', 'redlock-fence', '--dry-run'])).rejects.toThrow(
      expect.objectContaining({
        exitCode: 254,
        message: expect.stringContaining('got `redlock-fence` of S1, which is not applicable: redlock issues no monotonic fencing token'),
      }),
    );
    await expect(scenario(['run', 'S1', '--first-seed', '-1', '--dry-run'])).rejects.toThrow(
      'Expected `--first-seed` to be an integer from 0 to 2^53 - 1, got `-1`',
    );
  });

  it('run --dry-run: the runs and their replay commands on stdout, nothing run', async () => {
    const { stdout, stderr } = await scenario(['run', 'S3', 's5', '--dry-run', '--seeds', '2', '--out', '/tmp/x']);
    expect(stderr).toBe('');
    expect(stdout.split('\n')).toEqual([
      '8 runs (S3, S5; seeds 1, 2), about 3 min',
      '  S3/redlock-none seed 1: sudo npx fencecheck scenario run S3 --variant redlock-none --first-seed 1',
      '  S3/redlock-npm-none seed 1: sudo npx fencecheck scenario run S3 --variant redlock-npm-none --first-seed 1',
      '  S5/redlock seed 1: sudo npx fencecheck scenario run S5 --variant redlock --first-seed 1',
      '  S5/redlock-npm seed 1: sudo npx fencecheck scenario run S5 --variant redlock-npm --first-seed 1',
      '  S3/redlock-none seed 2: sudo npx fencecheck scenario run S3 --variant redlock-none --first-seed 2',
      '  S3/redlock-npm-none seed 2: sudo npx fencecheck scenario run S3 --variant redlock-npm-none --first-seed 2',
      '  S5/redlock seed 2: sudo npx fencecheck scenario run S5 --variant redlock --first-seed 2',
      '  S5/redlock-npm seed 2: sudo npx fencecheck scenario run S5 --variant redlock-npm --first-seed 2',
      '',
    ]);
    const one = await scenario(['run', 'S5', '--variant', 'redlock-npm', '--first-seed', '4', '--dry-run']);
    expect(one.stdout).toContain('  S5/redlock-npm seed 4: sudo npx fencecheck scenario run S5 --variant redlock-npm --first-seed 4');
  });

  it('lists the variants it leaves out, a reference client not built with the command that builds it', () => {
    const s11 = findScenario('S11');
    const lines = skippedLines([{ scenario: s11, variants: selectVariants(s11, []) }], () => false);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^ {2}skipped S11\/[\w-]+: not built: \S+ is missing \(.*\b(make|go build|npm run)\b.*\)$/);
    expect(skippedLines([{ scenario: s11, variants: selectVariants(s11, []) }], () => true)).toEqual([]);
  });

  it('refuses first seeds whose last replay would not parse, and plans past the bound, with 254 before any plan is built', async () => {
    const last = scenario(['run', 'S3', '--first-seed', '9007199254740991', '--seeds', '2', '--dry-run']);
    await expect(last).rejects.toMatchObject({
      exitCode: 254,
      message: 'Expected `--first-seed` + `--seeds` - 1 to be at most 2^53 - 1, got 9007199254740991 + 2 - 1',
    });
    const one = await scenario(['run', 'S3', '--variant', 'redlock-none', '--first-seed', '9007199254740991', '--dry-run']);
    expect(one.stdout).toContain('--first-seed 9007199254740991\n');
    // The seed count is bounded by its flag's range first (1..1000); the plan bound (plan-bounds.test.ts) stands behind it.
    await expect(scenario(['run', 'S3', '--seeds', '100000', '--dry-run'])).rejects.toMatchObject({
      exitCode: 254,
      message: expect.stringMatching(/Expected `--seeds` to be an integer from 1 to 1000, got `100000`/),
    });
  });

  it('refuses ids with --all, neither, --variant with several scenarios, unknown ids', async () => {
    await expect(scenario(['run', 'S1', '--all', '--dry-run'])).rejects.toThrow('Expected scenario ids or `--all`, got both (S1)');
    await expect(scenario(['run', '--dry-run'])).rejects.toThrow(UsageError);
    await expect(scenario(['run', 'S1', 'S2', '--variant', 'redis-none', '--dry-run'])).rejects.toThrow(
      'Expected `--variant` with exactly one scenario, got 2',
    );
    await expect(scenario(['run', 'S99', '--dry-run'])).rejects.toThrow('got `S99`');
    await expect(scenario(['run', 'S1', '--seeds', '0', '--dry-run'])).rejects.toThrow('Expected `--seeds` to be an integer from 1 to 1000, got `0`');
  });
});
