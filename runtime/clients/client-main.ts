/**
 * The lock client process (see protocol.ts): `node dist/runtime/clients/client-main.js`
 * with FC_CLIENT_CONFIG in its environment, started by the runner inside a
 * client namespace (ClientHost.spawn), stdin/stdout piped.
 *
 * It reads its configuration, connects to the lock service (best effort: a
 * service it cannot reach yet makes its ops fail, not the process), prints
 * `{"ready":true,"protocol":1,"token":"monotonic","versions":{...}}`, then answers requests one at a time
 * until `shutdown` or the end of stdin, and exits 0. A bad configuration
 * exits 254 before the ready line. Logs go to stderr; stdout carries only
 * protocol lines.
 *
 * A spare (runtime/hosts/spare-clients.ts: a warm cluster starts the next
 * run's clients while this run waits for recovery) has FC_CLIENT_SPARE=BACKEND
 * instead of FC_CLIENT_CONFIG: it loads that backend's lock client library,
 * then reads its configuration as the first line of stdin and goes on as
 * any client. It connects to nothing before it has its configuration.
 */
import { createInterface, type Interface } from 'node:readline';
import { UsageError } from '../../core/errors.js';
import { parseClientConfig } from './client-config.js';
import { realRuntime } from './client-runtime.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import { runClient } from './run-client.js';
import { loadLockClient } from './create-lock-client.js';
import type { LockBackend } from '../../core/vocabulary.js';

function logLine(prefix: string): (line: string) => void {
  return (line) => void process.stderr.write(`${new Date().toISOString()} ${prefix} ${line}\n`);
}

/** A spare's configuration: its backend's library loaded first (the point of starting early), then stdin's first line. */
async function spareConfig(backend: string | undefined): Promise<string | undefined> {
  if (backend === undefined) return undefined;
  // Best effort: a backend with no built-in client fails on its configuration, as any client's would.
  await loadLockClient(backend as LockBackend).catch(() => undefined);
  return firstLine(process.stdin);
}

/** The first line of a stream; whatever came after it is put back, unread, for the request loop. */
function firstLine(input: NodeJS.ReadStream): Promise<string | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      done();
      const rest = text.slice(nl + 1);
      if (rest !== '') input.unshift(Buffer.from(rest, 'utf8'));
      resolve(text.slice(0, nl));
    };
    const onEnd = (): void => {
      done();
      resolve(text === '' ? undefined : text);
    };
    const done = (): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
    };
    input.on('data', onData);
    input.on('end', onEnd);
  });
}

async function main(): Promise<number> {
  // stdout is the protocol channel: whatever a library prints with console.log goes to the log instead.
  console.log = console.info = console.debug = console.error.bind(console);
  let config: ClientConfig;
  try {
    config = parseClientConfig(process.env['FC_CLIENT_CONFIG'] ?? (await spareConfig(process.env['FC_CLIENT_SPARE'])));
  } catch (err) {
    const e = err as UsageError;
    process.stderr.write(`${e.message}\n${e instanceof UsageError && e.hint ? `Hint: ${e.hint}\n` : ''}`);
    return 254;
  }
  const log = logLine(`client${config.client} ${config.backend}`);
  // A stray error inside a library must not end the process in the middle of a run: it is logged.
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  process.on('uncaughtException', (err) => log(`uncaught exception: ${err.stack ?? err.message}`));

  // If the runner dies (SIGKILL, or killed mid-teardown), nobody will send `shutdown` or close our stdin
  // for sure: a client whose parent is gone exits by itself instead of spinning on dead connections.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) {
      log('the runner is gone: exiting');
      process.exit(0);
    }
  }, 1000).unref();

  // stdin is read from the moment the loop starts (right after the ready line), never before: a line read with
  // nobody iterating would be lost.
  let stdin: Interface | undefined;
  const lines = { [Symbol.asyncIterator]: () => (stdin = createInterface({ input: process.stdin, crlfDelay: Infinity }))[Symbol.asyncIterator]() };
  const print = (line: string): Promise<void> => new Promise((resolve) => process.stdout.write(`${line}\n`, () => resolve()));
  await runClient(config, { lines, print, log, closeInput: () => stdin?.close(), runtime: realRuntime });
  return 0;
}

main().then(
  // Exit even if a library keeps a handle open (gRPC channels, the ZooKeeper handle).
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`lock client crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(255);
  },
);
