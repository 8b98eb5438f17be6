/**
 * One answer from the shards of a sharded hunt (`fencecheck hunt --merge
 * DIR...`): their hunt.json files read back, checked to be shards of one hunt
 * (the same target, fault kinds, seed and shape; no shard twice), and their
 * tries taken together in the order they ended (shards run side by side, each
 * clock from its own start), so the first violation is the earliest found by
 * any shard and a silence weighs every tested try of every shard.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { huntOutcome, type HuntOutcome, type TryRecord } from './hunt-outcome.js';
import type { WantedSign } from './near-miss.js';
import { parseStrictJson } from '../../core/history/strict-json.js';

interface HuntJson {
  target: unknown;
  faults: unknown;
  /** The sign the hunt was asked to find (`--want`), if any. */
  want?: WantedSign;
  seed: unknown;
  shape: unknown;
  shard?: { index: number; count: number };
  interrupted?: boolean;
  tries: (Omit<TryRecord, 'plan' | 'miss'> & {
    index: number;
    origin: TryRecord['plan']['origin'];
    swarm: TryRecord['plan']['swarm'];
    hold?: TryRecord['plan']['hold'];
    patience?: TryRecord['plan']['patience'];
    windows: TryRecord['plan']['windows'];
    nearMiss: TryRecord['miss'];
  })[];
}

export interface MergedHunt extends HuntOutcome {
  records: TryRecord[];
  shards: string[];
  /** What the shards share: the target, fault kinds, seed, shape. */
  of: Pick<HuntJson, 'target' | 'faults' | 'seed' | 'shape'>;
  want?: WantedSign;
}

const HINT = 'Give the hunt directories (or their hunt.json files) that `fencecheck hunt --shard i/N` printed, one per shard of one hunt.';

/** A hunt directory's (or a hunt.json path's) document; UsageError when it is neither. */
export function readHuntJson(path: string): HuntJson {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'hunt.json') : path;
  if (!existsSync(file)) throw new UsageError(`${path}: not a hunt directory (no hunt.json)`, HINT);
  let doc: unknown;
  try {
    doc = parseStrictJson(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: not a hunt.json (${(err as Error).message})`, HINT);
  }
  if (typeof doc !== 'object' || doc === null || !Array.isArray((doc as HuntJson).tries)) throw new UsageError(`${file}: not a hunt.json (no tries)`, HINT);
  return doc as HuntJson;
}

export function mergeHunts(paths: readonly string[]): MergedHunt {
  if (paths.length === 0) throw new UsageError('Expected `--merge` to name at least one hunt directory, got none', HINT);
  const docs = paths.map((p) => ({ path: p, doc: readHuntJson(p) }));
  const key = (d: HuntJson): string =>
    JSON.stringify({ target: d.target, faults: d.faults, want: d.want, seed: d.seed, shape: d.shape, count: d.shard?.count ?? 1 });
  const first = docs[0]!;
  for (const d of docs.slice(1)) {
    if (key(d.doc) !== key(first.doc))
      throw new UsageError(
        `${d.path}: not a shard of the same hunt as ${first.path} (target, fault kinds, wanted sign, seed, shape or shard count differ)`,
        HINT,
      );
  }
  const seen = new Map<string, string>();
  for (const d of docs) {
    const s = d.doc.shard ? `${d.doc.shard.index}/${d.doc.shard.count}` : 'unsharded';
    if (seen.has(s)) throw new UsageError(`${d.path}: shard ${s} given twice (also ${seen.get(s)})`, HINT);
    seen.set(s, d.path);
  }
  const records = docs
    .flatMap((d) =>
      d.doc.tries.map((t): TryRecord => ({
        plan: { index: t.index, swarm: t.swarm, hold: t.hold ?? 'short', patience: t.patience ?? 'short', windows: t.windows, origin: t.origin },
        runDir: t.runDir,
        replay: t.replay,
        outcome: t.outcome,
        miss: t.nearMiss,
        ...(t.reproduced ? { reproduced: t.reproduced } : {}),
        error: t.error,
        endedAtMs: t.endedAtMs,
      })),
    )
    .sort((a, b) => a.endedAtMs - b.endedAtMs);
  const interrupted = docs.some((d) => d.doc.interrupted === true);
  const { target, faults, seed, shape } = first.doc;
  return {
    ...huntOutcome(records, interrupted, first.doc.want),
    records,
    shards: [...seen.keys()],
    of: { target, faults, seed, shape },
    ...(first.doc.want ? { want: first.doc.want } : {}),
  };
}
