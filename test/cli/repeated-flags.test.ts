/**
 * A single-valued flag given twice is 254 with a hint (issue 32 item 9), for
 * every command: generated from each command's own options, so a flag added
 * later is covered. Flags that collect (`up --backend`) still collect.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { refuseRepeatedFlags } from '../../src/cli/repeated-flags.js';
import { UsageError } from '../../core/errors.js';
import { budgetDuration } from '../../src/cli/hunt-flags.js';
import { runCli } from './run-cli.js';

const COMMANDS = ['run', 'check', 'compare', 'client-check', 'hunt', 'shrink', 'up', 'report'] as const;

async function registered(name: (typeof COMMANDS)[number]): Promise<Command> {
  const modules: Record<string, () => Promise<(p: Command) => void>> = {
    run: async () => (await import('../../src/cli/run-command.js')).registerRunCommand,
    check: async () => (await import('../../src/cli/check-command.js')).registerCheckCommand,
    compare: async () => (await import('../../src/cli/compare-command.js')).registerCompareCommand,
    'client-check': async () => (await import('../../src/cli/client-check-command.js')).registerClientCheckCommand,
    hunt: async () => (await import('../../src/cli/hunt-command.js')).registerHuntCommand,
    shrink: async () => (await import('../../src/cli/shrink-command.js')).registerShrinkCommand,
    up: async () => (await import('../../src/cli/up-command.js')).registerUpCommand,
    report: async () => (await import('../../src/cli/report-command.js')).registerReportCommand,
  };
  const program = new Command();
  (await modules[name]!())(program);
  return program.commands.find((c) => c.name() === name)!;
}

describe('a single-valued flag given twice', () => {
  it.each(COMMANDS)('%s: every value-taking flag twice is refused; once is not', async (name) => {
    const command = await registered(name);
    let checked = 0;
    for (const o of command.options) {
      if (!(o.required || o.optional) || o.long === undefined || o.variadic) continue;
      const once = [name, o.long, 'x'];
      expect(() => refuseRepeatedFlags(command, once)).not.toThrow();
      const collects = name === 'up' && (o.long === '--backend' || o.long === '--client');
      const twice = [name, o.long, 'x', `${o.long}=y`];
      if (collects) expect(() => refuseRepeatedFlags(command, twice)).not.toThrow();
      else expect(() => refuseRepeatedFlags(command, twice), o.long).toThrow(UsageError);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('a value that spells a flag is a value, not the flag again', async () => {
    const command = await registered('run');
    expect(() => refuseRepeatedFlags(command, ['run', '--results', '--seed', '--seed', '1'])).not.toThrow();
  });

  it('the CLI: 254 naming the flag, before anything runs', () => {
    const r = runCli(['check', 'nothing.jsonl', '--model', 'register', '--model', 'kv']);
    expect(r.code).toBe(254);
    expect(r.stderr).toContain('Expected `--model` once, got it twice or more');
  });
});

describe('hunt --budget: one range, 1 s to 168 h, no blanks', () => {
  it.each(['10m', '90s', '1h', '1.5h', '1000ms', '1', '168h'])('%s is taken', (text) => {
    expect(budgetDuration(text)).toBeGreaterThanOrEqual(1000);
  });
  it.each(['99999999999999999999h', '169h', ' 10m', '10m ', '10 m', '0.0000001ms', '999ms', '0', '', '1e3', '-5m', '1.0000001s'])(
    '%j is refused with a hint',
    (text) => {
      expect(() => budgetDuration(text)).toThrow(UsageError);
    },
  );
});
