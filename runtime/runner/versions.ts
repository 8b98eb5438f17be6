/**
 * The versions a run used, for test.json: the servers' Debian packages
 * (dpkg knows them exactly, whichever binary prints what) and fencecheck's
 * own; the client libraries come from the first client that is ready.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendName } from '../../core/cluster/cluster-plan.js';
import { projectRoot } from '../hosts/paths.js';
import { backendSpec } from '../cluster/backends/registry.js';

/** Asked of dpkg once per process: a command's many runs (compare, a warm pool) share the answer. */
const asked = new Map<string, Promise<string>>();

function packageVersion(pkg: string): Promise<string> {
  let v = asked.get(pkg);
  if (!v) {
    v = new Promise<string>((resolve) =>
      execFile('dpkg-query', ['-W', '-f', '${Version}', pkg], { timeout: 5000 }, (err, stdout) => resolve(err ? '' : stdout.trim())),
    );
    asked.set(pkg, v);
  }
  return v;
}

export async function serverVersions(backends: readonly BackendName[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await Promise.all(
    [...new Set(backends.map((b) => backendSpec(b).debianPackage))].map(async (pkg) => {
      out[pkg] = (await packageVersion(pkg)) || 'unknown (not a Debian package here)';
    }),
  );
  return out;
}

export function fencecheckVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
