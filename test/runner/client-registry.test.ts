/**
 * The lock clients by name (--lock-clients): names to command lines under the project root,
 * command lines kept as given, and every mistake a 254 naming the known clients.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { UsageError } from '../../core/errors.js';
import { parseClientCommand } from '../../runtime/runner/client-command-line.js';
import { commandLine, NAMED_CLIENTS, parseClientList } from '../../runtime/runner/client-registry.js';

describe('client registry', () => {
  it('names the built-in client, the reference clients and command lines, in the order given', () => {
    const choices = parseClientList('builtin, redis-semaphore ,simple-redis-mutex,/usr/bin/python3 my_client.py,./other', '/opt/fc');
    expect(choices.map((c) => c.name)).toEqual(['builtin', 'redis-semaphore', 'simple-redis-mutex', 'cmd1', 'cmd2']);
    expect(choices[0]).toEqual({ name: 'builtin', command: null, backends: null, token: null });
    expect(choices[1]).toEqual({
      name: 'redis-semaphore',
      command: `${process.execPath} /opt/fc/clients/node/redis-semaphore-mutex.mjs`,
      backends: ['redis'],
      token: 'unique',
    });
    expect(choices[2]).toMatchObject({ backends: ['redis'], token: 'monotonic' });
    expect(choices[3]).toEqual({ name: 'cmd1', command: '/usr/bin/python3 my_client.py', backends: null, token: null });
    expect(choices[4]).toMatchObject({ name: 'cmd2', command: './other' });
  });

  it('refuses an unknown name, a name twice, an empty list and an unbalanced command, each a UsageError (254) with a hint', () => {
    const refused = (text: string): UsageError => {
      try {
        parseClientList(text, '/opt/fc');
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return e as UsageError;
      }
      throw new Error(`accepted ${text}`);
    };
    const unknown = refused('builtin,redis-semaphor');
    expect(unknown.message).toBe('Expected `--lock-clients` to list builtin, known client names or command lines, got `redis-semaphor`');
    expect(unknown.hint).toContain('Known clients: builtin, redis-semaphore, redis-semaphore-redlock, sesamecare-redlock, simple-redis-mutex, etcd3-lock');
    expect(unknown.exitCode).toBe(254);
    expect(refused('etcd3-lock,etcd3-lock').message).toBe('Expected each client once in `--lock-clients`, got `etcd3-lock` twice');
    expect(refused(' , ').message).toBe('Expected `--lock-clients` to list at least one client, got ` , `');
    expect(refused("/usr/bin/python3 'x.py").message).toMatch(/balanced quotes/);
  });

  it('gives each named client a command that --client reads back, and whose program is in the repository', () => {
    const root = projectRoot();
    for (const c of NAMED_CLIENTS) {
      const argv = c.argv(root);
      expect(parseClientCommand(commandLine(argv))).toEqual(argv);
      // The Go binary is built by setup --go; its source is what the repository holds. The tooz clients' last word is the driver.
      const file = c.name === 'etcd-mutex' ? join(root, 'clients', 'go', 'etcd-mutex', 'main.go') : argv[argv.length - (c.name.startsWith('tooz-') ? 2 : 1)]!;
      expect(existsSync(file), `${c.name}: ${file}`).toBe(true);
    }
    expect(commandLine(['/a b/node', "it's"])).toBe(`'/a b/node' 'it'\\''s'`);
    expect(parseClientCommand(commandLine(['/a b/node', "it's"]))).toEqual(['/a b/node', "it's"]);
  });
});
