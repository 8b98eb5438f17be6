/**
 * The lock clients fencecheck knows by name: the built-in one and the
 * reference clients of clients/ (docs/client-protocol.md), so that a comparison
 * can say `--lock-clients builtin,redis-semaphore,etcd3-lock` instead of
 * command lines. Each entry records the backends its library talks to and the
 * token kind it announces (read from its library's source, and checked by
 * `fencecheck client-check`), so a comparison can plan its not-applicable
 * cells before any client has started. Pure data and lookups.
 */
import { join } from 'node:path';
import { projectRoot } from '../hosts/paths.js';
import { UsageError } from '../../core/errors.js';
import type { ClientFeature, ClientTokenKind } from '../../core/client-protocol.js';
import type { LockBackend } from '../../core/vocabulary.js';
import { parseClientCommand } from './client-command-line.js';

export const BUILTIN_CLIENT = 'builtin';

export interface NamedClient {
  name: string;
  /** The library and the version the client is pinned to. */
  library: string;
  /** The backends (clusters) it runs on. */
  backends: readonly LockBackend[];
  token: ClientTokenKind;
  /**
   * The features its ready line announces (core/client-modes.ts: version and for-update need `transactions`): the
   * Python and Node protocol helpers announce it, the Go and Java clients write their own ready line without it.
   */
  features: readonly ClientFeature[];
  /** Its program and arguments, relative to the project root (`node` is the running Node). */
  argv: (root: string) => string[];
  /** What must be installed first. */
  install: string;
}

const node = (file: string) => (root: string) => [process.execPath, join(root, 'clients', 'node', file)];
const python = (file: string) => (root: string) => ['/usr/bin/python3', join(root, 'clients', 'python', file)];
/** The protocol helpers' one feature (clients/python/fencecheck_protocol.py, clients/node/fencecheck-protocol.mjs). */
const TX: readonly ClientFeature[] = ['transactions'];
const NPM = 'npm run setup -- --node (installs clients/node/package.json)';
/** tooz_client.py with its driver: one program, four drivers (tooz's Lock API offers no token on any: docs/lock-clients.md). */
const tooz = (driver: string) => (root: string) => [...python('tooz_client.py')(root), driver];

export const NAMED_CLIENTS: readonly NamedClient[] = [
  {
    name: 'redis-semaphore',
    library: 'redis-semaphore 5.8.0 Mutex',
    backends: ['redis'],
    token: 'unique',
    features: TX,
    argv: node('redis-semaphore-mutex.mjs'),
    install: NPM,
  },
  {
    name: 'redis-semaphore-redlock',
    library: 'redis-semaphore 5.8.0 RedlockMutex',
    backends: ['redlock'],
    token: 'unique',
    features: TX,
    argv: node('redis-semaphore-redlock.mjs'),
    install: NPM,
  },
  {
    name: 'sesamecare-redlock',
    library: '@sesamecare-oss/redlock 1.4.0',
    backends: ['redlock'],
    token: 'unique',
    features: TX,
    argv: node('sesamecare-redlock.mjs'),
    install: NPM,
  },
  {
    name: 'simple-redis-mutex',
    library: 'simple-redis-mutex 3.0.0',
    backends: ['redis'],
    token: 'monotonic',
    features: TX,
    argv: node('simple-redis-mutex.mjs'),
    install: NPM,
  },
  { name: 'etcd3-lock', library: 'etcd3 1.1.2 Lock', backends: ['etcd'], token: 'unique', features: TX, argv: node('etcd3-lock.mjs'), install: NPM },
  {
    name: 'redis-py',
    library: 'redis-py 4.3.4 Lock',
    backends: ['redis'],
    token: 'unique',
    features: TX,
    argv: python('redis_py_client.py'),
    install: 'npm run setup',
  },
  {
    name: 'redis-py-sentinel',
    library: 'redis-py 4.3.4 Lock over Sentinel.master_for',
    backends: ['redis-sentinel'],
    token: 'unique',
    features: TX,
    argv: python('redis_py_sentinel_client.py'),
    install: 'npm run setup',
  },
  {
    name: 'kazoo',
    library: 'kazoo 2.8 Lock',
    backends: ['zookeeper'],
    token: 'monotonic',
    features: TX,
    argv: python('kazoo_client.py'),
    install: 'npm run setup',
  },
  {
    name: 'python-etcd3',
    library: 'python-etcd3 0.12.0 Lock',
    backends: ['etcd'],
    token: 'unique',
    features: TX,
    argv: python('etcd3_client.py'),
    install: 'npm run setup',
  },
  {
    name: 'etcd-mutex',
    library: 'etcd clientv3/concurrency Mutex 3.4.23',
    backends: ['etcd'],
    token: 'monotonic',
    features: [],
    argv: (root) => [join(root, 'clients', 'go', 'etcd-mutex', 'etcd-mutex')],
    install: 'npm run setup -- --go',
  },
  {
    name: 'tooz-memcached',
    library: 'tooz 3.1.0 memcached driver (pymemcache 3.5.2)',
    backends: ['memcached'],
    token: 'none',
    features: TX,
    argv: tooz('memcached'),
    install: 'npm run setup',
  },
  {
    name: 'tooz-redis',
    library: 'tooz 3.1.0 redis driver (redis-py 4.3.4)',
    backends: ['redis'],
    token: 'none',
    features: TX,
    argv: tooz('redis'),
    install: 'npm run setup',
  },
  {
    name: 'tooz-zookeeper',
    library: 'tooz 3.1.0 zookeeper driver (kazoo 2.8)',
    backends: ['zookeeper'],
    token: 'none',
    features: TX,
    argv: tooz('zookeeper'),
    install: 'npm run setup',
  },
  {
    name: 'tooz-etcd3gw',
    library: 'tooz 3.1.0 etcd3gw driver (etcd3gw 2.0.0)',
    backends: ['etcd'],
    token: 'none',
    features: TX,
    argv: tooz('etcd3gw'),
    install: 'npm run setup',
  },
  {
    name: 'psycopg2-advisory',
    library: 'psycopg2 2.9.5, PostgreSQL session-level advisory locks',
    backends: ['pg-advisory', 'pg-advisory-pooled'],
    token: 'monotonic',
    features: TX,
    argv: python('psycopg2_advisory_client.py'),
    install: 'npm run setup',
  },
  {
    name: 'curator',
    library: 'Curator 5.4.0 InterProcessMutex',
    backends: ['zookeeper'],
    token: 'none',
    features: [],
    argv: (root) => [join(root, 'clients', 'java', 'curator-mutex')],
    install: 'npm run setup -- --java',
  },
];

/** One entry of `--lock-clients`: the built-in client, a named one, or a command line. */
export interface ClientChoice {
  /** `builtin`, a registry name, or `cmdN` for the N-th command line given (1-based). */
  name: string;
  /** The command line as --client takes it; null for the built-in client. */
  command: string | null;
  /** The backends it can run on; null for any (built-in, or a command line whose library fencecheck does not know). */
  backends: readonly LockBackend[] | null;
  /** The token kind it announces; null when only its ready line will say (the backend's built-in kind is planned). */
  token: ClientTokenKind | null;
}

/** The named client a --client command line is (its name was given, or its command line), else undefined. */
export function knownClientOf(command: string, root: string = projectRoot()): NamedClient | undefined {
  return NAMED_CLIENTS.find((c) => commandLine(c.argv(root)) === command.trim());
}

/** The token kind of a --client command line that is a known client's, else undefined. */
export function knownTokenOf(command: string, root: string = projectRoot()): ClientTokenKind | undefined {
  return knownClientOf(command, root)?.token;
}

export function namedClient(name: string): NamedClient | undefined {
  return NAMED_CLIENTS.find((c) => c.name === name);
}

/** A command line for argv, quoting words as parseClientCommand reads them back. */
export function commandLine(argv: readonly string[]): string {
  return argv.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * `--lock-clients` text to choices. An entry with a blank or a slash is a command line (as --client
 * takes it); any other is a name, and an unknown name is refused (254) with the names known.
 */
export function parseClientList(text: string, root: string = projectRoot()): ClientChoice[] {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) throw new UsageError(`Expected \`--lock-clients\` to list at least one client, got \`${text}\``, listHint());
  const choices: ClientChoice[] = [];
  let commands = 0;
  for (const entry of entries) {
    const choice = parseEntry(entry, root, () => `cmd${++commands}`);
    if (choices.some((c) => c.name === choice.name))
      throw new UsageError(`Expected each client once in \`--lock-clients\`, got \`${choice.name}\` twice`, listHint());
    choices.push(choice);
  }
  return choices;
}

function parseEntry(entry: string, root: string, nextCommandName: () => string): ClientChoice {
  if (/[\s/]/.test(entry)) {
    parseClientCommand(entry);
    return { name: nextCommandName(), command: entry, backends: null, token: null };
  }
  if (entry === BUILTIN_CLIENT) return { name: BUILTIN_CLIENT, command: null, backends: null, token: null };
  const named = namedClient(entry);
  if (named === undefined) {
    throw new UsageError(`Expected \`--lock-clients\` to list builtin, known client names or command lines, got \`${entry}\``, listHint());
  }
  return { name: named.name, command: commandLine(named.argv(root)), backends: named.backends, token: named.token };
}

function listHint(): string {
  return `Known clients: ${[BUILTIN_CLIENT, ...NAMED_CLIENTS.map((c) => c.name)].join(', ')}; a command line needs a blank or a path, e.g. '/usr/bin/python3 my_client.py' (see docs/client-protocol.md).`;
}
