/**
 * A comparison's plan in words, for `--dry-run` and the first lines of a run:
 * how many cells and runs, which cells cannot run and why, this shard's share
 * and a rough time, then (for a dry run) every run of the shard in order.
 */
import { expectedRunMs, lockRows, matrixCells, planRuns } from './compare-spec.js';
import { formatDuration, plural } from './format-units.js';
import type { Manifest } from './manifest.js';
import { formatShard, inShard } from './shard.js';

export function planText(manifest: Manifest, opts: { listRuns: boolean; lanes?: number }): string {
  const { spec, shard } = manifest;
  const cells = matrixCells(lockRows(spec), spec.resources, spec.nemeses);
  const na = cells.filter((c) => c.notApplicable !== null);
  const runs = planRuns(spec);
  const mine = runs.filter((r) => inShard(r.index, shard));
  const perRun = expectedRunMs(spec.run);
  const lanes = opts.lanes ?? 1;
  const lines = [
    `compare: ${plural(cells.length, 'cell')} (${na.length} not applicable) x ${plural(spec.seeds.length, 'seed')} = ${plural(runs.length, 'run')}`,
    `${shard ? `shard ${formatShard(shard)}: ` : ''}${plural(mine.length, 'run')} here, about ${formatDuration((mine.length * perRun) / Math.min(lanes, Math.max(1, mine.length)))} at ~${formatDuration(perRun)} each, ${lanes === 1 ? 'one at a time' : `${lanes} at a time`}`,
  ];
  if (spec.nemeses.includes('none')) lines.push('none is a control column (no faults): its cells come out untested unless the lock fails anyway');
  if (na.length > 0) lines.push('not applicable (shown greyed, not run):', ...na.map((c) => `  ${c.id}: ${c.notApplicable}`));
  if (opts.listRuns) {
    lines.push('runs, in order:');
    // A loop, not push(...list): spreading 150,000 runs as arguments overflows the stack.
    for (const r of mine) lines.push(`  #${r.index} ${r.cellId} seed ${r.seed}`);
  }
  return lines.join('\n');
}
