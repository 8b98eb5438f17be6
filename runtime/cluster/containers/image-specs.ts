/**
 * The container provider's images as data (pure): each image's Dockerfile,
 * the files whose content decides its tag, and the base it starts from.
 *
 * Tags are content hashes (`fencecheck/servers:<12 hex>`): a build is skipped
 * when the tag exists, and a run asks for the tag its own files hash to, so a
 * changed Dockerfile, clock library or built client code can never run on a
 * stale image. The bases carry the names users pull elsewhere
 * (`debian:bookworm`, `node:20-bookworm-slim`): on a machine without a
 * registry `images build` makes them locally (bootstrap-bases.ts).
 */
import { createHash } from 'node:crypto';

export const IMAGE_NAMES = ['servers', 'client'] as const;
export type ImageName = (typeof IMAGE_NAMES)[number];

export const DEBIAN_BASE = 'debian:bookworm';
export const NODE_BASE = 'node:20-bookworm-slim';

export interface ImageSpec {
  name: ImageName;
  /** Repository name; the tag is the content hash. */
  repository: string;
  /** Relative to the project root. */
  dockerfile: string;
  /** The base image it starts FROM (made locally when missing). */
  base: typeof DEBIAN_BASE | typeof NODE_BASE;
  /**
   * The inputs that decide the tag, relative to the project root: files, or
   * directories (every regular file under them). node_modules is stood for by
   * npm's own record of what it installed (node_modules/.package-lock.json).
   */
  inputs: string[];
}

export const IMAGE_SPECS: Record<ImageName, ImageSpec> = {
  servers: {
    name: 'servers',
    repository: 'fencecheck/servers',
    dockerfile: 'images/servers.Dockerfile',
    base: DEBIAN_BASE,
    inputs: ['images/servers.Dockerfile', 'native/fc-clock.c'],
  },
  client: {
    name: 'client',
    repository: 'fencecheck/client',
    dockerfile: 'images/client.Dockerfile',
    base: NODE_BASE,
    inputs: [
      'images/client.Dockerfile',
      'native/fc-clock.c',
      'package.json',
      'node_modules/.package-lock.json',
      'dist/src',
      'dist/core',
      'dist/runtime',
      'src/report/page',
      'clients/python',
      'clients/node',
      'clients/node/node_modules/.package-lock.json',
    ],
  },
};

/** The tag of content hashed from (path, bytes) pairs; order-independent (sorted by path). */
export function contentTag(files: readonly { path: string; content: Uint8Array }[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    h.update(`${f.path}\0${f.content.length}\0`);
    h.update(f.content);
  }
  return h.digest('hex').slice(0, 12);
}

/** Where the project lives inside the client image (the built code is copied there). */
export const CLIENT_IMAGE_ROOT = '/opt/fencecheck';
/** The clock library inside both images. */
export const IMAGE_CLOCK_LIBRARY = '/usr/local/lib/libfc-clock.so';
/** Node inside the client image (as in the official node images). */
export const IMAGE_NODE = '/usr/local/bin/node';
/** Debian's Python 3 inside the client image (the Python reference clients' libraries are Debian packages). */
export const IMAGE_PYTHON = '/usr/bin/python3';
