/**
 * One provider interface all the way through (issue 34): no production code asks which provider it runs on
 * (`provider === …`, `provider !== …`) outside the providers' own files; it asks the provider instead
 * (runtime/cluster/provider-registry.ts, or core/plan/providers.ts' facts before anything starts). The files that
 * still compare, each with its reason, are listed; a listed file that no longer compares fails too.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './import-graph.js';
import { productionFiles } from './name-guard.js';

const ROOT = repoRoot(fileURLToPath(import.meta.url));
const BRANCH = /provider\s*[!=]==/;

/** A provider's own files: the containers provider's folder, the namespaces provider's modules. */
const isProvidersOwn = (file: string): boolean =>
  file.startsWith('runtime/cluster/containers/') || /^runtime\/cluster\/(namespaces-provider|namespace-[a-z-]+)\.ts$/.test(file);

const EXCEPTIONS: Record<string, string> = {
  'src/cli/client-check-command.ts': "a queue program's check runs on namespaces only: the queue run's own limit, not a provider's",
};

/** The files outside the providers that branch on a provider's name. */
export function branchingFiles(files: ReadonlyMap<string, string>): string[] {
  return [...files].filter(([file, text]) => BRANCH.test(text) && !isProvidersOwn(file) && EXCEPTIONS[file] === undefined).map(([file]) => file);
}

describe('provider branches in production code', () => {
  const files = productionFiles(ROOT);

  it('are only in the providers’ own files and the listed exceptions', () => {
    expect(branchingFiles(files)).toEqual([]);
  });

  it('lists no stale exception', () => {
    expect(Object.keys(EXCEPTIONS).filter((f) => !BRANCH.test(files.get(f) ?? ''))).toEqual([]);
  });

  it('fails on a new branch outside the providers, and not in their own files', () => {
    const synthetic = new Map([
      ['runtime/cluster/reclaim.ts', "if (state?.provider === 'containers') x();"],
      ['src/cli/up-command.ts', "flags.provider !== 'namespaces'"],
      ['runtime/cluster/containers/container-leftovers.ts', "state?.provider === 'containers'"],
      ['runtime/cluster/namespace-leftovers.ts', "provider === 'namespaces'"],
    ]);
    expect(branchingFiles(synthetic)).toEqual(['runtime/cluster/reclaim.ts', 'src/cli/up-command.ts']);
  });
});
