/**
 * The CLI as a few bundled files (dist/bundle/), built after tsc by
 * `npm run build` and at `prepare`: `fencecheck` runs dist/bundle/main.js.
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
 * lock clients, which run as their own processes from dist/workloads.
 * The check worker is its own entry, next to the chunk that starts it
 * (`new URL('./check-worker.js', import.meta.url)`).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';
import { projectRoot } from '../runtime/hosts/paths.js';

const BUNDLED_PACKAGES = new Set(['commander']);

const root = projectRoot();
const outDir = join(root, 'dist', 'bundle');
// Chunk names carry content hashes: without this, every build would leave the last one's chunks behind.
rmSync(outDir, { recursive: true, force: true });
await build({
  input: { main: join(root, 'dist/src/cli/main.js'), 'check-worker': join(root, 'dist/src/check/check-worker.js') },
  platform: 'node',
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !BUNDLED_PACKAGES.has(id),
  logLevel: 'warn',
  output: { dir: outDir, format: 'esm', entryFileNames: '[name].js', sourcemap: true },
});
