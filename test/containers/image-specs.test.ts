import { describe, expect, it } from 'vitest';
import { contentTag, IMAGE_SPECS } from '../../runtime/cluster/containers/image-specs.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('contentTag', () => {
  it('is the same for the same files in any order, 12 hex digits', () => {
    const a = contentTag([
      { path: 'a', content: bytes('1') },
      { path: 'b', content: bytes('2') },
    ]);
    const b = contentTag([
      { path: 'b', content: bytes('2') },
      { path: 'a', content: bytes('1') },
    ]);
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{12}$/);
  });

  it('changes with a byte, a path, or where one file ends and the next begins', () => {
    const base = contentTag([
      { path: 'a', content: bytes('12') },
      { path: 'b', content: bytes('3') },
    ]);
    expect(
      contentTag([
        { path: 'a', content: bytes('13') },
        { path: 'b', content: bytes('3') },
      ]),
    ).not.toBe(base);
    expect(
      contentTag([
        { path: 'c', content: bytes('12') },
        { path: 'b', content: bytes('3') },
      ]),
    ).not.toBe(base);
    expect(
      contentTag([
        { path: 'a', content: bytes('1') },
        { path: 'b', content: bytes('23') },
      ]),
    ).not.toBe(base);
  });
});

describe('IMAGE_SPECS', () => {
  it('hashes each Dockerfile and the clock library source it compiles', () => {
    for (const spec of Object.values(IMAGE_SPECS)) {
      expect(spec.inputs).toContain(spec.dockerfile);
      expect(spec.inputs).toContain('native/fc-clock.c');
    }
  });

  it('the client image is tagged by the built code it copies', () => {
    expect(IMAGE_SPECS.client.inputs).toEqual(expect.arrayContaining(['dist/src', 'dist/core', 'dist/runtime', 'node_modules/.package-lock.json']));
  });
});
