/**
 * The check script's V8 code cache (src/cli/check-script.ts), written at
 * build time by bundle-cli.ts: `node dist/build/train-code-cache.js BUNDLE_DIR`.
 *
 * The script is loaded and `fencecheck check` run in this process on small
 * seeded histories of every format and model a user checks (etcd logs, kv
 * logs, EDN, JSON Lines; valid and invalid, so the witness code is compiled
 * too), then the bytecode of every function those runs compiled is written
 * beside the script. Their verdicts go to stdout, which the build ignores.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCheckScript } from '../src/cli/check-script.js';
import { trainingHistories } from './training-histories.js';

const bundleDir = process.argv[2];
if (bundleDir === undefined) throw new Error('usage: train-code-cache.js BUNDLE_DIR');
const loaded = loadCheckScript(bundleDir);
if (loaded === undefined) throw new Error(`${bundleDir} has no check script`);

const work = mkdtempSync(join(tmpdir(), 'fencecheck-code-cache-'));
try {
  const runs = trainingHistories(work);
  for (const args of runs) await loaded.program.runProgram(args, [loaded.program.registerCheckCommand]);
  writeFileSync(loaded.cachePath, loaded.script.createCachedData());
  // The verdicts (some invalid on purpose) are not this process's outcome.
  process.exitCode = 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
