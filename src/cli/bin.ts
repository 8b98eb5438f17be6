#!/usr/bin/env node
/**
 * The bin as the bundle ships it: dist/bundle/main.js, one CommonJS file
 * (build/bundle-cli.ts), in front of the CLI bundled as ES modules in
 * dist/bundle/lib/. `check` runs straight from the code-cached check script
 * there (check-script.ts); any other command, or a check a container harness
 * may take, imports the CLI's entry (main.ts), which does what it always did.
 *
 * Why CommonJS: Node starts an ES module entry through its ES module loader
 * (its resolver, translators and module jobs, compiled in every process, and
 * a facade for each built-in the entry imports), which a check from the
 * script never needed: measured on the kv corpus, interleaved, 21 runs each,
 * 0.160 s of CPU (0.207 s of wall time) with the ES module entry, 0.152 s
 * (0.180 s) with this one (2 cores, load 8).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheckScript } from './check-script.js';
import { commandWord, endQuietlyOnClosedPipe, exitOnceWritten, harnessMayMatter } from './entry.js';

/** Where the bundle keeps the CLI's ES modules and the check script, below this bin. */
const LIB = 'lib';

async function bin(args: readonly string[]): Promise<void> {
  if (commandWord(args) === 'check' && !harnessMayMatter(args)) {
    endQuietlyOnClosedPipe();
    if (await runCheckScript(join(dirname(fileURLToPath(import.meta.url)), LIB), args)) await exitOnceWritten();
  }
  // The CLI reads the arguments itself, as it does run directly. The build resolves this to lib/main.js.
  await import('./main.js');
}

bin(process.argv.slice(2)).catch((err: unknown) => {
  // Only the loading of the script or the CLI can throw here (a command's errors are its exit code).
  process.stderr.write(`fencecheck: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 255;
});
