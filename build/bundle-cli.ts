/**
 * The CLI as a few bundled files (dist/bundle/), built after tsc by
 * `npm run build` and at `prepare`: `fencecheck` runs dist/bundle/main.js, a
 * CommonJS bin (src/cli/bin.ts) in front of the CLI's ES modules in lib/.
 *
 * Why a bundle: a command's code is already loaded only when it runs, but
 * the ES module loader still resolved, read and compiled each of the ~60
 * modules `check` needs one by one (and commander's), a third of a small
 * check's time beyond `node -e 0`. One chunk per command (rolldown keeps the
 * lazy `import()`s as split points) cut `check` of a two-op history from
 * 89 to 75 ms and the etcd family's whole process by ~13 ms here.
 *
 * What stays out: packages other than commander (native addons such as
 * zookeeper's, testcontainers' optional requires, and pg/ioredis are loaded
 * by commands that start clusters, where start-up does not matter), and the
 * lock clients, which run as their own processes from dist/runtime.
 * The check worker is its own entry, next to the chunk that starts it
 * (`new URL('./check-worker.js', import.meta.url)`).
 *
 * `check` itself runs from a second build: check-program.ts as one CommonJS
 * script (dist/bundle/lib/check-program.cjs) with a V8 code cache beside it,
 * written by a training run of the script (train-code-cache.ts); see
 * src/cli/check-script.ts for why.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type RolldownPlugin } from 'rolldown';
import { projectRoot } from '../runtime/hosts/paths.js';

const BUNDLED_PACKAGES = new Set(['commander']);

const root = projectRoot();
const outDir = join(root, 'dist', 'bundle');
// The CLI's ES modules and the check script, below the CommonJS bin (src/cli/bin.ts: why).
const libDir = join(outDir, 'lib');
// Chunk names carry content hashes: without this, every build would leave the last one's chunks behind.
rmSync(outDir, { recursive: true, force: true });
const external = (id: string): boolean => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !BUNDLED_PACKAGES.has(id);

/**
 * Commander loads node:child_process when its module runs, for subcommands
 * kept in executables of their own, which fencecheck has none of: 3 ms of
 * every start-up. Here it is loaded on first use instead. A commander whose
 * source no longer has the line fails the build rather than losing this quietly.
 */
const lazyChildProcess: RolldownPlugin = {
  name: 'commander-lazy-child-process',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/commander/lib/command.js')) return null;
    const line = "const childProcess = require('node:child_process');";
    if (!code.includes(line)) throw new Error(`commander's command.js no longer has \`${line}\`: update build/bundle-cli.ts`);
    // Same line, same length or not: nothing moves to another line, so the source map stays right (map: null).
    return { code: code.replace(line, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"), map: null };
  },
};

/**
 * In one CommonJS script every module's built-ins are required at its top, those of modules a check loads
 * only on some paths too: node:crypto (atomic writes, run directories) and node:worker_threads (--threads),
 * ~5 ms of every check's start-up. Each becomes an object that requires the module on first use (the
 * bundle only reads their members: `node_crypto.randomBytes`). The build fails if the line is gone.
 */
const LAZY_BUILTINS = ['crypto', 'worker_threads'];
const lazyBuiltins: RolldownPlugin = {
  name: 'lazy-builtins',
  renderChunk(code) {
    let out = code;
    for (const name of LAZY_BUILTINS) {
      const line = `let node_${name} = require("node:${name}");`;
      if (!out.includes(line)) throw new Error(`the check script no longer has \`${line}\`: update build/bundle-cli.ts`);
      out = out.replace(line, `let node_${name} = new Proxy({}, { get: (_, key) => require("node:${name}")[key] });`);
    }
    return { code: out, map: null };
  },
};

await build({
  input: { main: join(root, 'dist/src/cli/main.js'), 'check-worker': join(root, 'dist/src/check/check-worker.js') },
  platform: 'node',
  external,
  plugins: [lazyChildProcess],
  logLevel: 'warn',
  output: { dir: libDir, format: 'esm', entryFileNames: '[name].js', sourcemap: true },
});

// One script, no chunks: a code cache covers one script, and dynamic imports inside a vm.Script would need a loader.
await build({
  input: join(root, 'dist/src/cli/check-program.js'),
  platform: 'node',
  external,
  plugins: [lazyChildProcess, lazyBuiltins],
  logLevel: 'warn',
  output: { file: join(libDir, 'check-program.cjs'), format: 'cjs', codeSplitting: false, sourcemap: true },
});

/** The bin's import of the CLI (`./main.js` beside bin.ts in dist/src) is the bundled CLI in lib/, loaded as it is. */
const binImportsLib: RolldownPlugin = {
  name: 'bin-imports-lib',
  resolveId(source, importer) {
    if (source === './main.js' && importer !== undefined && importer.replace(/\\/g, '/').endsWith('/cli/bin.js'))
      return { id: './lib/main.js', external: true };
    return null;
  },
};

// The bin, CommonJS: dist/bundle/main.js (package.json's bin). Node reads the nearest package.json's type, so each
// folder says its own: CommonJS here, ES modules in lib/.
await build({
  input: join(root, 'dist/src/cli/bin.js'),
  platform: 'node',
  external,
  plugins: [binImportsLib],
  logLevel: 'warn',
  output: { file: join(outDir, 'main.js'), format: 'cjs', codeSplitting: false, sourcemap: true },
});
writeFileSync(join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
writeFileSync(join(libDir, 'package.json'), '{ "type": "module" }\n');

// The code cache, from a check of each history format and model in a child (a process of its own, as a user's check).
execFileSync(process.execPath, [join(root, 'dist/build/train-code-cache.js'), libDir], { stdio: ['ignore', 'ignore', 'inherit'] });
