/**
 * A lock client process's work once its configuration is read: the lock
 * client of its backend, the resource's connection, connect, the ready line,
 * then the request loop until `shutdown` or the end of its input, and a
 * bounded close. client-main.ts runs it over the process's stdio and the
 * real runtime; the simulation (test/sim) runs it over a simulated process's
 * pipes and simulated transports, so both run this code.
 */
import { createLockClient, lockClientOptions, type LockClientClass } from '../../runtime/clients/create-lock-client.js';
import { tokenKindOf } from '../../core/vocabulary.js';
import { libraryVersions } from '../../runtime/clients/library-versions.js';
import { PROTOCOL_VERSION, type ClientAnswer, type ClientConfig, type ClientReady } from '../../core/client-protocol.js';
import { RequestHandler } from '../../runtime/clients/request-handler.js';
import { PgDb, Resource } from '../../runtime/clients/resource.js';
import { serveLines } from '../../runtime/clients/serve-requests.js';
import { sleep } from '../../runtime/clients/time.js';
import type { ClientRuntime } from './client-runtime.js';

export interface ClientIo {
  /** Its stdin, line by line (iterated from right after the ready line). */
  lines: AsyncIterable<string>;
  /** One line to its stdout (the newline added by the writer); resolves once written. */
  print(line: string): Promise<void>;
  /** Its stderr. */
  log: (line: string) => void;
  /** Stop reading stdin (after shutdown). */
  closeInput(): void;
  runtime: ClientRuntime;
  /** The versions its ready line announces (default: Node's and the installed libraries'). */
  versions?: () => Record<string, string>;
  /** The backend's lock client class, already loaded (the simulation: a module load takes real time); default: loaded now. */
  lockClient?: LockClientClass;
}

export async function runClient(config: ClientConfig, io: ClientIo): Promise<'shutdown' | 'end'> {
  const { log, runtime } = io;
  const lock = io.lockClient ? new io.lockClient(lockClientOptions(config, log, runtime)) : await createLockClient(config, log, runtime);
  const db = (runtime.pg ?? ((pg, t, l) => new PgDb(pg, t, l)))(config.pg, config.callTimeoutMs, log);
  const resource = new Resource(db, config.resource, config.resourceKey, log);
  await lock.connect();
  const ready: ClientReady = {
    ready: true,
    protocol: PROTOCOL_VERSION,
    token: tokenKindOf(config.backend),
    versions: (io.versions ?? libraryVersions)(),
    features: ['transactions'],
  };
  // Not awaited: the loop must start reading at once (client-main's stdin is read only from then on).
  void io.print(JSON.stringify(ready));
  log(
    `ready: ${config.lockEndpoints.join(',')} lock ${config.lockName}, resource ${config.resource} ${config.resourceKey}, call timeout ${config.callTimeoutMs} ms`,
  );

  const answer = (a: ClientAnswer): Promise<void> => io.print(JSON.stringify(a));
  const how = await serveLines(io.lines, answer, new RequestHandler(lock, resource, log, config.checkHold === true), log, runtime.clock, io.closeInput);
  log(`stopping (${how === 'shutdown' ? 'shutdown' : 'stdin closed'})`);
  await Promise.race([Promise.all([lock.close(), db.close()]), sleep(2000, runtime.clock)]);
  return how;
}
