/**
 * The versions a client reports in its ready line: Node and the client
 * libraries, read from their installed package.json (so a report says what
 * actually ran, not what package.json asked for).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const CLIENT_LIBRARIES = ['ioredis', 'redlock', 'etcd3', '@grpc/grpc-js', 'zookeeper', 'pg'] as const;

/** The installed version of `name`, found by walking up from its resolved entry point. */
export function installedVersion(name: string): string {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve(name));
    for (;;) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name) return (pkg.version ?? 'unknown').replace(/^v/, '');
      } catch {
        // no package.json at this level
      }
      const parent = dirname(dir);
      if (parent === dir) return 'unknown';
      dir = parent;
    }
  } catch {
    return 'not installed';
  }
}

export function libraryVersions(): Record<string, string> {
  return { node: process.version, ...Object.fromEntries(CLIENT_LIBRARIES.map((n) => [n, installedVersion(n)])) };
}
