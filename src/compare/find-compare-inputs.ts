/**
 * What `fencecheck compare --merge` is given: compare directories (with a
 * manifest.json), run directories (with a test.json), or any directory above
 * them (a folder of downloaded CI artifacts). Directories are searched down to
 * a few levels; symbolic links (`latest`) are not followed, so no run is found
 * twice, and a compare directory is not searched inside (its manifest already
 * says which of its runs count, and which attempts were abandoned).
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FAULT_KINDS } from '../../core/generator/faults/registry.js';
import { UsageError } from '../../core/errors.js';
import { cellId, runId } from './compare-spec.js';
import type { CompareSource } from './gather-matrix.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';
import { readRunSummary, type RunSummary } from './run-summary.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { RUN_FILES } from '../../core/run-files/run-files.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { type StoredTest } from '../../core/run-files/test-json.js';
import { LOCK_BACKENDS, RESOURCE_MODES } from '../../core/vocabulary.js';

const MAX_DEPTH = 6;

export interface CompareInputs {
  sources: CompareSource[];
  looseRuns: RunSummary[];
  warnings: string[];
}

export function findCompareInputs(paths: readonly string[]): CompareInputs {
  const inputs: CompareInputs = { sources: [], looseRuns: [], warnings: [] };
  for (const path of paths) {
    const before = inputs.sources.length + inputs.looseRuns.length;
    const dir = resolve(path);
    if (!isDir(dir, true))
      throw new UsageError(
        `Expected \`--merge\` to list directories, got \`${path}\``,
        'Pass compare directories (results/compare/<timestamp>), run directories, or a folder holding them.',
      );
    const warned = inputs.warnings.length;
    visit(dir, 0, inputs);
    if (inputs.sources.length + inputs.looseRuns.length === before) {
      const skipped = inputs.warnings.slice(warned);
      throw new UsageError(
        `Expected \`${path}\` to hold compare directories (${MANIFEST_FILE}) or run directories (test.json), found none${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}`,
        'Check the path; CI artifacts may need unzipping first.',
      );
    }
  }
  return inputs;
}

function visit(dir: string, depth: number, inputs: CompareInputs): void {
  const manifest = entryKind(join(dir, MANIFEST_FILE));
  if (manifest === 'link') inputs.warnings.push(`${join(dir, MANIFEST_FILE)} is a symbolic link, not followed; skipped`);
  else if (manifest !== 'none') {
    // A FIFO or device named manifest.json is refused by its reader (254), never waited on.
    inputs.sources.push({ dir, manifest: readManifest(dir)! });
    return;
  }
  const test = entryKind(join(dir, RUN_FILES.test));
  if (test === 'link') inputs.warnings.push(`${join(dir, RUN_FILES.test)} is a symbolic link, not followed; skipped`);
  else if (test !== 'none') {
    const run = looseRun(dir, inputs.warnings);
    if (run) inputs.looseRuns.push(run);
    return;
  }
  if (depth >= MAX_DEPTH) return;
  for (const name of readdirSync(dir).sort()) {
    const child = join(dir, name);
    if (name !== RUN_FILES.logs && isDir(child)) visit(child, depth + 1, inputs);
  }
}

/** A run directory found on its own: its cell and seed come from its test.json. */
function looseRun(dir: string, warnings: string[]): RunSummary | null {
  let test: StoredTest | null;
  try {
    test = readTestJson(dir);
  } catch (err) {
    // A directory under --merge that is not one of our runs is skipped with why, not fatal.
    if (!(err instanceof RunFileError)) throw err;
    warnings.push(`${err.message}; skipped`);
    return null;
  }
  const backend = test?.['backend'];
  const resource = test?.['resource'];
  const nemesis = test?.['nemesis'] ?? test?.['nemeses'] ?? [];
  const seed = test?.['seed'];
  if (
    typeof backend !== 'string' ||
    !(LOCK_BACKENDS as readonly string[]).includes(backend) ||
    typeof resource !== 'string' ||
    !(RESOURCE_MODES as readonly string[]).includes(resource) ||
    !Array.isArray(nemesis) ||
    !nemesis.every((n) => typeof n === 'string' && (FAULT_KINDS as readonly string[]).includes(n)) ||
    typeof seed !== 'number'
  ) {
    warnings.push(`${dir}: test.json does not name a lock run fencecheck knows (backend, resource, nemesis, seed); skipped`);
    return null;
  }
  const cell = cellId(backend, resource, nemesis.length === 0 ? 'none' : nemesis.join('+'));
  return readRunSummary(dir, { id: runId(cell, seed), cellId: cell, seed });
}

/** Links are followed only where a person named the path. */
function isDir(path: string, follow = false): boolean {
  try {
    return (follow ? statSync(path) : lstatSync(path)).isDirectory();
  } catch {
    return false;
  }
}

/** What is at a path, links not followed: a FIFO or device counts as present (its reader refuses it, naming it). */
function entryKind(path: string): 'none' | 'file' | 'link' | 'special' {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (info === undefined || info.isDirectory()) return 'none';
  return info.isFile() ? 'file' : info.isSymbolicLink() ? 'link' : 'special';
}
