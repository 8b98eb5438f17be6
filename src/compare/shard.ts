/**
 * Sharding without a scheduler: every machine computes the same run list from
 * the same flags, and shard i of N takes the runs whose index k has
 * k mod N = i - 1. Round-robin over a seed-major list spreads every backend and
 * every seed across the shards, so shards take about the same time.
 */
import { UsageError } from '../../core/errors.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(count) && index >= 1 && index <= count)) {
    throw new UsageError(`Expected \`--shard\` to be i/N with 1 <= i <= N (e.g. 2/4), got \`${text}\``);
  }
  return { index, count };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** Whether run k (its index in the whole run list) belongs to a shard; no shard means all runs. */
export function inShard(k: number, shard: Shard | null): boolean {
  return shard === null || k % shard.count === shard.index - 1;
}
