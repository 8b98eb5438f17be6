/**
 * Where a comparison's runs go, and whether it starts or resumes: a new
 * directory gets a fresh manifest; a directory that already holds the same
 * comparison (same spec, same shard) resumes it; one that holds another is
 * refused rather than mixed.
 */
import { formatShard, type Shard } from './shard.js';
import { UsageError } from '../../core/errors.js';
import { sameSpec, type CompareSpec } from './compare-spec.js';
import { newManifest, readManifest, type Manifest } from './manifest.js';

/** `--out DIR` (or the default directory): the manifest to run from. */
export function openCompareDir(dir: string, spec: CompareSpec, shard: Shard | null, createdAt: string): Manifest {
  const existing = readManifest(dir);
  if (existing === null) return newManifest(spec, shard, createdAt);
  const sameShard = (existing.shard === null ? '' : formatShard(existing.shard)) === (shard === null ? '' : formatShard(shard));
  if (!sameSpec(existing.spec, spec) || !sameShard) {
    throw new UsageError(
      `Expected \`--out ${dir}\` to be a new directory or one holding this same comparison, but it holds another one${sameShard ? '' : ` (shard ${existing.shard ? formatShard(existing.shard) : 'none'})`}`,
      `Resume that one with \`fencecheck compare --resume ${dir}\`, or pass another --out.`,
    );
  }
  return existing;
}

/** `--resume DIR`: the manifest it holds. */
export function resumeCompareDir(dir: string): Manifest {
  const manifest = readManifest(dir);
  if (manifest === null) {
    throw new UsageError(
      `Expected \`--resume\` to name a compare directory (with manifest.json), got \`${dir}\``,
      'Pass a directory that `fencecheck compare` wrote, e.g. results/compare/<timestamp>.',
    );
  }
  return manifest;
}
