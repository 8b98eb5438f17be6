/**
 * The entry point loads only the command that runs (start-up time); these
 * tests pin what that must not change: --version, the full listing, help for
 * one command, and commander's suggestion for a typo (exit 254).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { madeTempDir } from '../support/temp-dirs.js';
import { runCli } from './run-cli.js';
import { projectRoot } from '../../runtime/hosts/paths.js';

const COMMANDS = ['run', 'check', 'compare', 'scenario', 'up', 'down', 'doctor', 'setup', 'report', 'serve'];

describe('fencecheck entry point', () => {
  it('prints its version with no command loaded', () => {
    expect(runCli(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
    expect(runCli(['-V'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });

  it('lists every command in --help and `help`', () => {
    for (const args of [['--help'], ['help']]) {
      const { code, stdout } = runCli(args);
      expect(code).toBe(0);
      for (const name of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
  });

  it('loads every command, from the bundle and from the compiled modules (the integration tests and the clients run those): a module cycle that reads a binding before it is set fails here', () => {
    const listed = runCli(['--help'])
      .stdout.match(/^  ([a-z-]+)\b/gm)!
      .map((l) => l.trim())
      .filter((n) => n !== 'help' && !n.startsWith('-'));
    expect(listed).toEqual(expect.arrayContaining(COMMANDS));
    for (const name of listed) {
      for (const main of [undefined, join(projectRoot(), 'dist', 'src', 'cli', 'main.js')]) {
        const r = runCli([name, '--help'], main ? { main } : {});
        expect(r.code, `${main ?? 'bundle'} ${name} --help: ${r.stderr}`).toBe(0);
      }
    }
  });

  it("shows one command's help when only that command is loaded, and through `help CMD`", () => {
    for (const args of [
      ['check', '--help'],
      ['help', 'check'],
    ]) {
      const { code, stdout } = runCli(args);
      expect(code).toBe(0);
      expect(stdout).toContain('Usage: fencecheck check [options] <paths...>');
      expect(stdout).toContain('--max-search-mb');
    }
    expect(runCli(['serve', '--help']).stdout).toContain('Usage: fencecheck serve');
  });

  it('suggests the closest command for a typo, exit 254', () => {
    const { code, stderr } = runCli(['chek', 'x']);
    expect(code).toBe(254);
    expect(stderr).toContain("unknown command 'chek'");
    expect(stderr).toContain('Did you mean check?');
  });

  it('a bad FENCECHECK_SUBNET stops a cluster command before it makes anything (254, no run directory)', () => {
    const cwd = madeTempDir('fencecheck-cli-subnet-');
    for (const args of [
      ['run', '--backend', 'redis', '--time-limit', '1'],
      ['scenario', 'run', 'S1', '--dry-run'],
      ['client-check', '--backend', 'redis'],
    ]) {
      const { code, stderr } = runCli(args, { cwd, env: { ...process.env, FENCECHECK_SUBNET: '10.0.0.0/16' } });
      expect(code, args.join(' ')).toBe(254);
      expect(stderr).toContain('Expected FENCECHECK_SUBNET to be a private /24 such as `10.78.0.0/24`, got `10.0.0.0/16`');
    }
    expect(existsSync(join(cwd, 'results'))).toBe(false);
    expect(runCli(['check', '--help'], { env: { ...process.env, FENCECHECK_SUBNET: 'bad' } }).code).toBe(0);
  });
});
