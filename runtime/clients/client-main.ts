/**
 * The lock client process (see protocol.ts): `node dist/workloads/clients/client-main.js`
 * with FC_CLIENT_CONFIG in its environment, started by the runner inside a
 * client namespace (ClientHost.spawn), stdin/stdout piped.
 *
 * It reads its configuration, connects to the lock service (best effort: a
 * service it cannot reach yet makes its ops fail, not the process), prints
 * `{"ready":true,"protocol":1,"token":"monotonic","versions":{...}}`, then answers requests one at a time
 * until `shutdown` or the end of stdin, and exits 0. A bad configuration
 * exits 254 before the ready line. Logs go to stderr; stdout carries only
 * protocol lines.
 */
import { UsageError } from '../../core/errors.js';
import { parseClientConfig } from './client-config.js';
import { createLockClient } from './create-lock-client.js';
import { tokenKindOf } from '../../core/vocabulary.js';
import { libraryVersions } from './library-versions.js';
import { PROTOCOL_VERSION, type ClientConfig, type ClientReady } from '../../core/client-protocol.js';
import { RequestHandler } from './request-handler.js';
import { PgDb, Resource } from './resource.js';
import { serveRequests } from './serve-requests.js';
import { sleep } from './time.js';

function logLine(prefix: string): (line: string) => void {
  return (line) => void process.stderr.write(`${new Date().toISOString()} ${prefix} ${line}\n`);
}

async function main(): Promise<number> {
  // stdout is the protocol channel: whatever a library prints with console.log goes to the log instead.
  console.log = console.info = console.debug = console.error.bind(console);
  let config: ClientConfig;
  try {
    config = parseClientConfig(process.env['FC_CLIENT_CONFIG']);
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

  const lock = await createLockClient(config, log);
  const db = new PgDb(config.pg, config.callTimeoutMs, log);
  const resource = new Resource(db, config.resource, config.resourceKey, log);
  await lock.connect();
  const ready: ClientReady = { ready: true, protocol: PROTOCOL_VERSION, token: tokenKindOf(config.backend), versions: libraryVersions(), features: ['transactions'] };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  log(`ready: ${config.lockEndpoints.join(',')} lock ${config.lockName}, resource ${config.resource} ${config.resourceKey}, call timeout ${config.callTimeoutMs} ms`);

  const how = await serveRequests(process.stdin, process.stdout, new RequestHandler(lock, resource, log, config.checkHold === true), log);
  log(`stopping (${how === 'shutdown' ? 'shutdown' : 'stdin closed'})`);
  await Promise.race([Promise.all([lock.close(), db.close()]), sleep(2000)]);
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
