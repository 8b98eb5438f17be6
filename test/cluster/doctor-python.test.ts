/** doctor's Python line: every library with its version, the missing ones named with their Debian packages, no Python at all. */
import { describe, expect, it } from 'vitest';
import { PYTHON_LIBRARIES, pythonLibrariesCheck } from '../../runtime/cluster/doctor-python.js';

const all = Object.fromEntries(PYTHON_LIBRARIES.map((l, i) => [l.dist, `1.${i}`]));

describe('pythonLibrariesCheck', () => {
  it('passes with every library, listing the versions found', () => {
    const c = pythonLibrariesCheck(all);
    expect(c.ok).toBe(true);
    expect(c.detail).toContain('psycopg2 1.3');
    expect(c.detail).toContain('tooz 1.4');
  });

  it('fails naming the missing libraries and the packages that provide them', () => {
    const c = pythonLibrariesCheck({ ...all, psycopg2: null, tooz: undefined as unknown as null });
    expect(c.ok).toBe(false);
    expect(c.detail).toBe('missing for the Python reference clients: psycopg2, tooz');
    expect(c.hint).toBe('Run `npm run setup` (Debian packages python3-psycopg2 python3-tooz).');
  });

  it('fails without /usr/bin/python3', () => {
    const c = pythonLibrariesCheck(null);
    expect(c.ok).toBe(false);
    expect(c.hint).toContain('python3');
  });
});
