/**
 * NoLockClient (`--backend none`): no lock service at all. The runner never
 * asks it for a lock (every client goes straight to the resource, whose own
 * concurrency control is then the whole protection); an acquire that comes
 * anyway is refused with nothing sent, so a hold is never pretended.
 */
import type { Acquired, LockClient, LockClientOptions } from './lock-client.js';
import { failed } from './op-error.js';

export class NoLockClient implements LockClient {
  readonly backend = 'none' as const;

  constructor(_options: LockClientOptions) {}

  async connect(): Promise<void> {}

  async acquire(): Promise<Acquired> {
    throw failed('no-lock-service', 'this run has no lock service (--backend none)');
  }

  async release(): Promise<void> {
    throw failed('not-held', 'this run has no lock service (--backend none)');
  }

  holdLost(): string | undefined {
    return undefined;
  }

  async close(): Promise<void> {}
}
