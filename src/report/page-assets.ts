/**
 * The files a report page is made of, read when a report is written (not
 * bundled at build time): d3's own minified UMD build from node_modules, the
 * page's stylesheet, and the page's script files in src/report/page/.
 *
 * Why plain script files concatenated in a fixed order, not ES modules: a
 * report is one file opened from file://, where module scripts cannot import
 * one another, and a bundler step would put a build between editing the page
 * and seeing it. Each file holds one part of the page (decoding, the
 * timeline, the charts, ...) as top-level functions; concatenated inside one
 * function they share a scope, as modules would share imports. The order
 * below is the dependency order.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FencecheckError } from '../../core/errors.js';
import { projectRoot } from '../../runtime/hosts/paths.js';

export const PAGE_SCRIPTS = [
  'format.js',
  'data.js',
  'dom.js',
  'header.js',
  'tooltip.js',
  'view.js',
  'timeline-draw.js',
  'timeline-marks.js',
  'timeline.js',
  'charts.js',
  'anomalies.js',
  'story.js',
  'main.js',
] as const;

export interface PageAssets {
  d3: string;
  css: string;
  /** The page scripts, concatenated in order, each headed by its file name. */
  script: string;
}

let cached: Promise<PageAssets> | undefined;

export function pageAssets(): Promise<PageAssets> {
  cached ??= loadPageAssets().catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function loadPageAssets(): Promise<PageAssets> {
  const pageDir = join(packageRoot(), 'src', 'report', 'page');
  const [d3, css, ...scripts] = await Promise.all([
    readAsset(d3Path()),
    readAsset(join(pageDir, 'report.css')),
    ...PAGE_SCRIPTS.map((name) => readAsset(join(pageDir, name))),
  ]);
  const script = scripts.map((text, i) => `// ---- ${PAGE_SCRIPTS[i]} ----\n${text}`).join('\n');
  return { d3: d3!, css: css!, script };
}

/** The package's root (src/, dist/src/ or the bundle alike): the project's package.json, not the nearest one (the bundle's folders have their own, bin.ts). */
function packageRoot(): string {
  try {
    return projectRoot();
  } catch (err) {
    throw assetError('package.json above ' + fileURLToPath(import.meta.url), err);
  }
}

/** d3's package exports only its entry points, so find dist/d3.min.js next to the resolved entry. */
function d3Path(): string {
  try {
    const entry = createRequire(import.meta.url).resolve('d3');
    return join(dirname(entry), '..', 'dist', 'd3.min.js');
  } catch (err) {
    throw assetError('the d3 package', err);
  }
}

async function readAsset(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw assetError(path, err);
  }
}

function assetError(what: string, cause?: unknown): FencecheckError {
  return new FencecheckError('report-assets', `cannot find ${what}, which every report page inlines`, {
    hint: 'Reinstall fencecheck with its dependencies (`npm ci`); the report needs d3 and src/report/page/.',
    cause,
  });
}
