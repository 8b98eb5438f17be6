/**
 * The npm reference clients (clients/node: redis-semaphore, @sesamecare-oss/redlock,
 * simple-redis-mutex, the etcd3 package's lock) have their own package.json and lock
 * file, installed apart from fencecheck's: they are what a user of those libraries
 * runs, pinned to the versions measured, and fencecheck itself depends on none of them.
 * `fencecheck setup --node` calls this; `--ignore-scripts` because none of them needs
 * an install script (protobufjs's only checks its version).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../hosts/paths.js';
import { runCommand } from '../hosts/run-command.js';

export function nodeClientsDir(): string {
  return join(projectRoot(), 'clients', 'node');
}

/** Whether the npm reference clients' libraries are installed (tests skip, loudly, when not). */
export function nodeClientsInstalled(): boolean {
  return ['redis-semaphore', '@sesamecare-oss/redlock', 'simple-redis-mutex', 'etcd3', 'pg'].every((p) =>
    existsSync(join(nodeClientsDir(), 'node_modules', p, 'package.json')),
  );
}

/** `npm ci` in clients/node: exactly the versions of its package-lock.json. */
export async function installNodeClients(): Promise<void> {
  await runCommand('npm', ['ci', '--prefix', nodeClientsDir(), '--ignore-scripts', '--no-audit', '--no-fund'], {
    timeoutMs: 600_000,
    hint: 'The npm registry must be reachable; or run `npm ci --ignore-scripts` in clients/node by hand.',
  });
}
