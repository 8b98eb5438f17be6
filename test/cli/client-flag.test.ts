/**
 * `--client` (run, compare, scenario, client-check): a command line, or a
 * known client's name standing for its command line.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { clientCommand } from '../../src/cli/run-flags.js';

describe('--client', () => {
  it('takes a known client by name, as --lock-clients does', () => {
    expect(clientCommand('kazoo')).toBe(`/usr/bin/python3 ${join(projectRoot(), 'clients', 'python', 'kazoo_client.py')}`);
    expect(clientCommand('simple-redis-mutex')).toBe(`${process.execPath} ${join(projectRoot(), 'clients', 'node', 'simple-redis-mutex.mjs')}`);
  });

  it('keeps a command line, and a bare word that is no known name (a program on the PATH)', () => {
    expect(clientCommand("/usr/bin/python3 'my client.py'")).toBe("/usr/bin/python3 'my client.py'");
    expect(clientCommand('my-lock-client')).toBe('my-lock-client');
  });

  it('refuses an unparsable command line with 254', () => {
    expect(() => clientCommand("python3 'unclosed")).toThrow(expect.objectContaining({ exitCode: 254 }));
  });
});
