/**
 * runCheckScript: `fencecheck check` run from dist/bundle/lib/check-program.cjs
 * (check-program.ts bundled as one script) compiled with the V8 code cache
 * the build wrote beside it (build/train-code-cache.ts).
 *
 * Why: a check of the public corpus is a fraction of a second, and a third of
 * a small one was the ES module loader and V8 parsing and compiling the
 * bundle's functions, again in every process. Node 20 has no code cache for
 * ES modules (module.enableCompileCache is Node 22), but vm.Script takes one:
 * the bytecode of every function the training run compiled, so a check starts
 * without parsing or compiling them. The cache is written at build time under
 * dist/, never at run time; a cache V8 rejects (another Node version, other
 * V8 flags) costs only the compile it would have saved. V8 checks the source
 * only by its length: the build empties dist/bundle first and trains on the
 * script it just wrote, so a cache is never older than its script.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import type { Register } from './program.js';

/** What check-program.ts exports. */
export interface CheckProgram {
  runProgram(args: readonly string[], registrations: readonly Register[]): Promise<void>;
  registerCheckCommand: Register;
  allowJitTuning(): void;
}

export interface LoadedScript {
  program: CheckProgram;
  script: Script;
  cachePath: string;
  /** Whether V8 took the cache (false: none, or rejected). */
  cached: boolean;
}

/** The script's file name, in the bundle's lib/ beside the CLI's main.js. */
export const CHECK_SCRIPT = 'check-program.cjs';

/** The script in `dir` compiled (with its code cache when there is one) and run; undefined without the script. */
export function loadCheckScript(dir: string): LoadedScript | undefined {
  const file = `${dir}/${CHECK_SCRIPT}`;
  const cachePath = `${file}.code-cache`;
  const source = readIfThere(file)?.toString('utf8');
  if (source === undefined) return undefined;
  const cachedData = readIfThere(cachePath);
  // CommonJS's own wrapper: the bundle reads require, module and __filename (the check worker's path).
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as CheckProgram };
  const run = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
  return { program: module.exports, script, cachePath, cached: cachedData !== undefined && !script.cachedDataRejected };
}

/** Run `fencecheck check` from the script in `dir`; false when there is none (the compiled modules). */
export async function runCheckScript(dir: string, args: readonly string[]): Promise<boolean> {
  const loaded = loadCheckScript(dir);
  if (loaded === undefined) return false;
  // Compiled by now, under the flags its cache was made with: a short check may tune V8 (short-check-jit.ts).
  loaded.program.allowJitTuning();
  await loaded.program.runProgram(args, [loaded.program.registerCheckCommand]);
  return true;
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
