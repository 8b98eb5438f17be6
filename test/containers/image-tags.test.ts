import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageRef } from '../../runtime/cluster/containers/image-tags.js';
import { madeTempDir } from '../support/temp-dirs.js';

function put(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

describe('imageRef (the client image)', () => {
  it("changes with a reference client's source and npm's record of its install, not with caches or installed files", () => {
    const root = madeTempDir('fc-image-tags-');
    put(root, 'clients/python/kazoo_client.py', 'print(1)\n');
    put(root, 'clients/node/etcd3-lock.mjs', 'export {};\n');
    put(root, 'clients/node/node_modules/.package-lock.json', '{"v":1}\n');
    const first = imageRef('client', root);
    expect(first).toMatch(/^fencecheck\/client:[0-9a-f]{12}$/);
    // A Python client that ran here leaves byte code; installed packages are stood for by npm's record.
    put(root, 'clients/python/__pycache__/kazoo_client.cpython-311.pyc', 'bytes');
    put(root, 'clients/node/node_modules/etcd3/index.js', 'x');
    expect(imageRef('client', root)).toBe(first);
    put(root, 'clients/node/node_modules/.package-lock.json', '{"v":2}\n');
    const second = imageRef('client', root);
    expect(second).not.toBe(first);
    put(root, 'clients/python/kazoo_client.py', 'print(2)\n');
    expect(imageRef('client', root)).not.toBe(second);
  });
});
