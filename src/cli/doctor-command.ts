/**
 * `fencecheck doctor`: one line per check; each failure with its `Hint:`.
 * Exit 254 when anything fails.
 */
import type { Command } from 'commander';
import { runDoctor } from '../../runtime/cluster/doctor.js';
import { EXIT } from '../../core/errors.js';
import { subnetFlag } from './cluster-flags.js';
import { oneOf } from './parse-options.js';
import { PROVIDERS, type ProviderName } from '../../core/plan/providers.js';

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check privileges, programs and versions, kernel features, the address range and leftovers (or, with --provider containers, Docker and the images); say which providers work here.',
    )
    .option('--subnet <cidr>', 'the /24 to check (default 10.77.0.0/24)', subnetFlag('--subnet'))
    .option('--json', 'print the checks as JSON')
    .option('--provider <name>', `the provider to check: ${PROVIDERS.join(' (default) or ')}`, oneOf('--provider', PROVIDERS), 'namespaces')
    .action(async (flags: { subnet?: string; json?: boolean; provider: ProviderName }) => {
      const checks = await runDoctor({ ...(flags.subnet ? { subnet: flags.subnet } : {}), provider: flags.provider });
      const failed = checks.filter((c) => !c.ok && c.advisory !== true);
      if (flags.json) process.stdout.write(JSON.stringify(checks, null, 2) + '\n');
      else {
        const width = Math.max(...checks.map((c) => c.name.length));
        const lines = checks.map(
          (c) => `${c.advisory ? 'info' : c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail}${c.hint ? `\n      Hint: ${c.hint}` : ''}`,
        );
        process.stdout.write(`${lines.join('\n')}\n${failed.length === 0 ? 'all checks passed' : `${failed.length} check(s) failed`}\n`);
      }
      process.exitCode = failed.length === 0 ? 0 : EXIT.badInput;
    });
}
