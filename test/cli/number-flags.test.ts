/**
 * Every numeric flag of every command has a range, shows it in --help, and refuses
 * anything outside it or not written as a plain decimal (exponents, hex, signs,
 * blanks), before anything starts. The flags are found by walking the real
 * commands, so a numeric flag added without a range fails here.
 */
import { Command, type Option } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerCheckCommand } from '../../src/cli/check-command.js';
import { registerClientCheckCommand } from '../../src/cli/client-check-command.js';
import { registerCompareCommand } from '../../src/cli/compare-command.js';
import { registerReportCommand } from '../../src/cli/report-command.js';
import { registerRunCommand } from '../../src/cli/run-command.js';
import { registerScenarioCommand } from '../../src/cli/scenario-command.js';
import { registerUpCommand } from '../../src/cli/up-command.js';
import { UsageError } from '../../core/errors.js';
import { parseInRange } from '../../core/number-range.js';
import { rangeTableMarkdown } from '../../src/cli/range-table.js';
import { readFileSync } from 'node:fs';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { DEFAULTS, validateRunOptions, type RunOptions } from '../../core/plan/run-options.js';
import { testSeed } from '../support/seed.js';

/** A value placeholder that names a number: `<n>`, `<ms>`, `<s>`, `<i>`. */
const NUMERIC_PLACEHOLDER = /<(n|ms|s)>/;
const RANGE_IN_HELP = /\[(\d+(?:\.\d+)?|2\^53 - 1)\.\.(\d+(?:\.\d+)?|2\^53 - 1)(?: [^\]]+)?\]/;

function allCommands(): Command[] {
  const program = new Command();
  for (const register of [
    registerRunCommand,
    registerCheckCommand,
    registerCompareCommand,
    registerClientCheckCommand,
    registerScenarioCommand,
    registerUpCommand,
    registerReportCommand,
  ])
    register(program);
  const out: Command[] = [];
  const walk = (c: Command): void => {
    out.push(c);
    c.commands.forEach(walk);
  };
  walk(program);
  return out;
}

const numericOptions: { command: string; option: Option }[] = allCommands().flatMap((c) =>
  c.options.filter((o) => NUMERIC_PLACEHOLDER.test(o.flags) || o.long === '--port').map((option) => ({ command: c.name(), option })),
);

function bound(text: string): number {
  return text === '2^53 - 1' ? Number.MAX_SAFE_INTEGER : Number(text);
}

function parse(o: Option, text: string): unknown {
  return o.parseArg!(text, undefined);
}

describe('numeric flags', () => {
  it('finds the numeric flags of every command (the walk itself works)', () => {
    const names = numericOptions.map(({ command, option }) => `${command} ${option.long}`);
    for (const expected of [
      'run --time-limit',
      'run --seed',
      'compare --seeds',
      'check --threads',
      'serve --port',
      'up --zk-tick-ms',
      'client-check --ttl-ms',
      'run --busy-timeout-ms',
    ])
      expect(names).toContain(expected);
  });

  it.each(numericOptions.map(({ command, option }) => [`${command} ${option.long}`, option] as const))(
    '%s: a range in its help, its bounds taken, one past them and non-decimals refused',
    (_name, option) => {
      const m = RANGE_IN_HELP.exec(option.description);
      expect(m, `help of ${option.long} shows no [min..max]: ${option.description}`).not.toBeNull();
      const [min, max] = [bound(m![1]!), bound(m![2]!)];
      const integer = Number.isInteger(min) && !/per second/.test(option.description);
      expect(parse(option, String(min))).toBe(min);
      if (max !== Number.MAX_SAFE_INTEGER) expect(parse(option, String(max))).toBe(max);
      const tooBig = max === Number.MAX_SAFE_INTEGER ? '9007199254740992' : String(max + 1);
      const refused = [
        tooBig,
        '1e3',
        '0x10',
        ' 5',
        '5 ',
        '+5',
        '',
        'Infinity',
        'NaN',
        '-0',
        ...(min > 0 ? [String(min - (integer ? 1 : min))] : ['-1']),
        ...(integer ? ['1.5'] : []),
      ];
      for (const text of refused) {
        expect(() => parse(option, text), `${option.long} ${JSON.stringify(text)}`).toThrow(UsageError);
        expect(() => parse(option, text)).toThrow(`Expected \`${option.long}\` to be `);
      }
    },
  );

  it('parseInRange: random texts are refused (254) or read exactly as the plain decimal they are', () => {
    const seed = testSeed('parseInRange random texts', 'test/cli/number-flags.test.ts');
    const range = { min: 0, max: 100_000 };
    const text = fc.oneof(fc.string({ maxLength: 8 }), fc.stringMatching(/^[0-9eExX.+\- ]{0,8}$/), fc.integer({ min: -10, max: 200_000 }).map(String));
    fc.assert(
      fc.property(text, (t) => {
        let got: number | undefined;
        try {
          got = parseInRange('--x', range)(t);
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          expect((err as UsageError).exitCode).toBe(254);
          expect(/^\d+$/.test(t) && Number(t) <= range.max).toBe(false);
          return;
        }
        expect(t).toMatch(/^\d+$/);
        expect(got).toBe(Number(t));
      }),
      { seed, numRuns: 2000 },
    );
  });

  it('validateRunOptions applies the same ranges to options that arrive as numbers (a manifest, a scenario)', () => {
    const base: RunOptions = { ...DEFAULTS, backend: 'etcd', resource: 'fence-claim', workload: 'lock-counter' };
    expect(() => validateRunOptions({ ...base, timeLimitS: 1e9 })).toThrow('Expected `--time-limit` to be an integer from 1 to 86400 (s), got `1000000000`');
    expect(() => validateRunOptions({ ...base, rate: Infinity })).toThrow('Expected `--rate` to be a number from 0.001 to 1000 (per second)');
    expect(() => validateRunOptions({ ...base, recoverMs: 2 ** 31 })).toThrow('`--recover-ms`');
    expect(() => validateRunOptions({ ...base, seed: -1 })).toThrow('`--seed`');
  });

  it('README.md lists every range as the code has it, and every numeric flag the commands take', () => {
    const table = rangeTableMarkdown();
    expect(readFileSync(`${projectRoot()}/README.md`, 'utf8')).toContain(table);
    for (const { option } of numericOptions) expect(table, option.long).toContain(`| \`${option.long}\` |`);
  });
});
