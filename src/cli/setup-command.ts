/**
 * `fencecheck setup` (also `npm run setup`): install missing Debian packages
 * and build the clock library.
 */
import type { Command } from 'commander';
import { setup } from '../../runtime/cluster/setup.js';

export function registerSetupCommand(program: Command): void {
  program
    .command('setup')
    .description('Install the missing Debian packages (as root) and build the LD_PRELOAD clock library.')
    .option('--go', "also install Go and etcd's Go sources from Debian and build the Go reference client (clients/go/etcd-mutex)")
    .option('--java', 'also install a JDK, Curator and pgjdbc from Debian for the Java reference client (clients/java/curator-mutex)')
    .option('--node', 'also install the npm lock libraries of the Node reference clients (clients/node: npm ci there)')
    .option(
      '--docker',
      "also install Debian's docker.io and debootstrap and start dockerd when no Docker daemon answers (the containers provider; then `fencecheck images build`)",
    )
    .action(async (flags: { go?: boolean; java?: boolean; node?: boolean; docker?: boolean }) => {
      await setup((line) => void process.stdout.write(`${line}\n`), {
        go: flags.go === true,
        java: flags.java === true,
        node: flags.node === true,
        docker: flags.docker === true,
      });
    });
}
