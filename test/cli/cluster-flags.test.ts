/** The cluster flags of `up` and `doctor` checked on paper: a bad subnet or client name is a 254 before anything starts. */
import { describe, expect, it } from 'vitest';
import { assertClusterPlan, subnetFlag } from '../../src/cli/cluster-flags.js';
import { UsageError } from '../../core/errors.js';
import { runCli } from './run-cli.js';

describe('cluster flags', () => {
  it('accepts a private /24 and refuses anything else with the flag named', () => {
    expect(subnetFlag('--subnet')('10.77.0.0/24')).toBe('10.77.0.0/24');
    for (const bad of ['abc', '10.77.0.0/16', '8.8.8.0/24', '10.77.0.1/24', '300.1.1.0/24']) {
      expect(() => subnetFlag('--subnet')(bad), bad).toThrow(`Expected \`--subnet\` to be a private /24 such as \`10.77.0.0/24\`, got \`${bad}\``);
    }
  });

  it('refuses a client named twice, named like a server, or malformed', () => {
    expect(() => assertClusterPlan(['redis'], undefined, ['c1', 'c2'])).not.toThrow();
    expect(() => assertClusterPlan(['redis'], undefined, ['c1', 'c1'])).toThrow(/Expected `--client` names to be distinct host names.*`c1` is already taken/);
    expect(() => assertClusterPlan(['redis'], undefined, ['Bad_Name'])).toThrow(UsageError);
  });

  it('doctor --subnet abc and up --subnet 10.77.0.0/16 exit 254 with no stack trace (the CLI, no root needed to refuse)', () => {
    for (const args of [
      ['doctor', '--subnet', 'abc'],
      ['up', '--backend', 'redis', '--subnet', '10.77.0.0/16'],
      ['up', '--backend', 'redis', '--client', 'c1,c1'],
      ['run', '--backend', 'redis', '--seed', '-1'],
    ]) {
      const r = runCli(args);
      expect(r.code, args.join(' ')).toBe(254);
      expect(r.stderr, args.join(' ')).not.toMatch(/internal error|at .*\.js/);
    }
  });
});
