/**
 * imageRef: the content-hash tag of an image from the files on disk (the thin
 * I/O around contentTag), what `images build` builds and a run asks for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../hosts/paths.js';
import { contentTag, IMAGE_SPECS, type ImageName } from './image-specs.js';

function filesUnder(root: string, rel: string): string[] {
  const abs = join(root, rel);
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st) return [];
  if (st.isFile()) return [rel];
  if (!st.isDirectory()) return [];
  // Python's byte-code cache appears when a reference client runs here: not an input (the image ignores it too).
  // An installed node_modules is stood for by npm's record of it, named as an input of its own.
  return readdirSync(abs)
    .sort()
    .filter((e) => e !== '__pycache__' && e !== 'node_modules')
    .flatMap((e) => filesUnder(root, join(rel, e)));
}

/** `fencecheck/servers:3f2a…` for the files as they are now. */
export function imageRef(name: ImageName, root = projectRoot()): string {
  const spec = IMAGE_SPECS[name];
  const files = spec.inputs.flatMap((i) => filesUnder(root, i)).map((path) => ({ path, content: readFileSync(join(root, path)) }));
  return `${spec.repository}:${contentTag(files)}`;
}
