/**
 * The Go reference client (clients/go/etcd-mutex: etcd's clientv3/concurrency
 * Mutex), built offline in GOPATH mode against Debian's Go packages: no module
 * proxy is reachable on these machines, and Debian ships the etcd 3.4.23
 * sources under /usr/share/gocode. `fencecheck setup --go` installs the
 * packages and calls this.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { goClientPath, projectRoot } from '../hosts/paths.js';
import { runCommand } from '../hosts/run-command.js';

export const GO_PACKAGES = ['golang-go', 'golang-etcd-server-dev', 'golang-github-lib-pq-dev'] as const;

export { goClientPath };

/** Build it when missing or older than its source; true when it was built. */
export async function buildGoClient(): Promise<boolean> {
  const source = join(projectRoot(), 'clients', 'go', 'etcd-mutex', 'main.go');
  const out = goClientPath();
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(source).mtimeMs) return false;
  await runCommand('go', ['build', '-o', out, source], {
    env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' } as Record<string, string>,
    timeoutMs: 600_000,
    hint: `Install the Go packages: apt-get install -y ${GO_PACKAGES.join(' ')}`,
  });
  return true;
}
