/**
 * One request to one answer: the client process's state (the hold it is
 * in, with its token) and the dispatch of each op to the lock client or the
 * resource. Never throws: every error becomes an answer, `info` when it is
 * not one of ours (a bug may have left anything half done).
 *
 * Accesses run under the current hold's token. A careful client (config
 * `checkHold`, off by default) does not touch the resource once its lock
 * client says the hold is lost (ZooKeeper session suspended or closed, etcd
 * lease not renewed within its TTL): such an access answers `fail lock-lost`
 * without sending anything. Redis and Redlock clients are never told, so
 * they go on either way.
 *
 * Without a lock (`--backend none`) the runner sends no acquire: every
 * access goes straight to the resource, under no token.
 */
import type { Value } from '../../core/history/op.js';
import type { LockClient, Token } from './lock-client.js';
import { failed, OpError } from './op-error.js';
import type { ClientAnswer, ClientRequest } from '../../core/client-protocol.js';
import type { Resource } from './resource.js';
import type { Access } from './resource-modes.js';

type Body = Omit<ClientAnswer, 'id'>;

export class RequestHandler {
  private hold: { token: Token } | undefined;

  constructor(
    private readonly lock: LockClient,
    private readonly resource: Resource,
    private readonly log: (line: string) => void,
    private readonly checkHold = false,
  ) {}

  async handle(req: ClientRequest): Promise<ClientAnswer> {
    const token = this.hold?.token;
    let body: Body;
    try {
      body = await this.dispatch(req);
    } catch (err) {
      // An access or release carries the token it ran under; a failed acquire has none of its own.
      if (err instanceof OpError) body = { type: err.type, error: err.code, ...(token !== undefined && req.op !== 'acquire' ? { token } : {}) };
      else {
        this.log(`${req.op}: unexpected ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        body = { type: 'info', error: 'client-error' };
      }
      if (req.op === 'acquire') body.lease_ms = req.ttlMs;
      if (err instanceof OpError) this.log(`${req.op} ${body.type}: ${err.message}`);
    }
    return { id: req.id, ...body };
  }

  private async dispatch(req: ClientRequest): Promise<Body> {
    switch (req.op) {
      case 'acquire': {
        // A client holds one lock at a time; the runner releases first. Nothing is sent.
        if (this.hold) throw failed('already-held', `this client holds token ${this.hold.token}`);
        const a = await this.lock.acquire(req.ttlMs);
        this.hold = { token: a.token };
        return { type: 'ok', token: a.token, lease_ms: a.lease_ms, ...(a.validity_ms !== undefined ? { validity_ms: a.validity_ms } : {}) };
      }
      case 'release': {
        const token = this.hold?.token;
        this.hold = undefined;
        await this.lock.release();
        return { type: 'ok', ...(token !== undefined ? { token } : {}) };
      }
      case 'read':
      case 'write':
      case 'mark':
        return this.access((t) => this.resource.run(req.statements, t));
      case 'final-read': {
        // After the run, under no hold: any client reads what the resource ended up holding.
        const a = await this.resource.run(req.statements, this.hold?.token);
        return { type: a.type, ...(a.value !== undefined ? { value: a.value } : {}), ...(a.error ? { error: a.error } : {}) };
      }
      case 'shutdown':
        return { type: 'ok' };
    }
  }

  /** An access under the current hold, unless the hold is known lost or there is none. */
  private async access(run: (token: Token | undefined) => Promise<Access>): Promise<Body> {
    const token = this.hold?.token;
    if (this.lock.backend === 'none') return answerOf(await run(undefined));
    // No hold: nothing is sent.
    if (token === undefined) return { type: 'fail', error: 'no-hold', outcome: 'unknown' };
    const lost = this.checkHold ? this.lock.holdLost() : undefined;
    if (lost !== undefined) {
      this.log(`access refused: ${lost}`);
      // The careful client does not send it: nothing reached the resource.
      return { type: 'fail', error: 'lock-lost', outcome: 'unknown', token };
    }
    const a = await run(token);
    return { ...answerOf(a), token };
  }
}

function answerOf(a: Access): Body {
  const value: Value | undefined = a.value;
  return {
    type: a.type,
    outcome: a.outcome,
    ...(value !== undefined ? { value } : {}),
    ...(a.fence !== undefined ? { fence: a.fence } : {}),
    ...(a.version !== undefined ? { version: a.version } : {}),
    ...(a.error ? { error: a.error } : {}),
  };
}
