/**
 * The fencecheck client protocol, version 1, in plain Node (docs/client-protocol.md).
 *
 * A lock client is a small object with connect / acquire / release / close; this
 * module does the rest, as clients/python/fencecheck_protocol.py does: it reads
 * FC_CLIENT_CONFIG, prints the ready line, answers one JSON request per line on
 * stdin with one JSON answer per line on stdout, strictly in order, and runs each
 * access's SQL statements (sent by the runner) on its own PostgreSQL connection
 * (node-postgres) with its token bound, transactions included (feature
 * `transactions`: for-update's read opens one, its write commits it).
 *
 * It is deliberately independent of fencecheck's own TypeScript: it is what a
 * user of an npm lock library would write, and it needs only `pg`.
 *
 * Outcomes follow Jepsen: throw new Fail(code) when the operation definitely did
 * not happen, new Info(code) when it may have; anything else a library throws is
 * `info` (a wrong `fail` could hide a bug, a wrong `info` only costs precision).
 */
import { createInterface } from 'node:readline';
import pg from 'pg';

export const PROTOCOL_VERSION = 1;

/** It definitely did not happen. */
export class Fail extends Error {
  constructor(code, detail = '') {
    super(detail ? `${code}: ${detail}` : code);
    this.code = code;
  }
}

/** It may have happened. */
export class Info extends Error {
  constructor(code, detail = '') {
    super(detail ? `${code}: ${detail}` : code);
    this.code = code;
  }
}

export function log(line) {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

/** Rejects with `onTimeout()` after ms; the library call keeps running (it may still land: callers map this to info). */
export function withTimeout(promise, ms, onTimeout) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One PostgreSQL connection, reopened after a failure; statements as the runner sends them. */
class Resource {
  constructor(pgConfig, callTimeoutMs) {
    this.pgConfig = pgConfig;
    this.callTimeoutMs = callTimeoutMs;
    this.client = null;
    this.inTransaction = false;
  }

  async connected() {
    if (this.client !== null) return this.client;
    const client = new pg.Client({
      host: this.pgConfig.host,
      port: this.pgConfig.port,
      user: this.pgConfig.user,
      database: this.pgConfig.database,
      connectionTimeoutMillis: this.callTimeoutMs,
      // The server cancels (and rolls back) a statement that runs too long: a definite fail.
      statement_timeout: Math.max(1, Math.floor(this.callTimeoutMs * 0.8)),
      // A silent network (a partition) must not block forever: the client gives up (the write may have landed).
      query_timeout: this.callTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1000,
    });
    // Without a listener a broken connection's 'error' event would end the process.
    client.on('error', (e) => {
      log(`pg connection error: ${e.message}`);
      if (this.client === client) this.client = null;
    });
    try {
      await client.connect();
    } catch (e) {
      client.end().catch(() => undefined);
      // Nothing was sent: the connection never opened.
      throw new Fail('pg-connect', e.message);
    }
    this.client = client;
    return client;
  }

  drop() {
    const c = this.client;
    this.client = null;
    c?.end().catch(() => undefined);
  }

  async run(statements, token) {
    if (!statements || statements.length === 0) throw new Fail('not-applicable', 'this access has no statement in this resource mode');
    // Bind every token first: a token that does not fit fails the access with nothing sent.
    const bound = statements.map((s) => [s, s.params.map((p) => bind(p, token))]);
    // Feature `transactions`: a transaction a previous section left open must not absorb this one.
    if (this.inTransaction && statements[0].control === 'begin') await this.rollback();
    let last = null;
    for (const [s, values] of bound) {
      let result;
      try {
        if (s.control === 'commit') this.inTransaction = false;
        const client = await this.connected();
        result = await client.query(s.sql, values);
      } catch (e) {
        if (e instanceof Fail) throw e;
        const inTransaction = this.inTransaction;
        if (inTransaction) await this.rollback();
        // 57014 query_canceled: statement_timeout, the server cancelled our statement and rolled it back.
        if (e.code === '57014') throw new Fail('statement-timeout', e.message);
        // Any other SQLSTATE: the server refused our statement, rolled back.
        if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) throw new Fail(`pg-${e.code}`, e.message);
        this.drop();
        // The connection broke or timed out with the statement in flight: a read changed nothing, a write may have committed,
        // unless it was inside a transaction whose COMMIT was never sent.
        if (s.readOnly || inTransaction) throw new Fail('connection-lost', e.message);
        throw new Info('connection-lost', e.message);
      }
      if (s.control === 'begin') this.inTransaction = true;
      if (s.control !== undefined) continue;
      if (result.rowCount === 0) {
        if (this.inTransaction) await this.rollback();
        return { type: 'fail', outcome: 'rejected', error: s.rejectIfNoRow };
      }
      last = result.rows[0] ?? null;
    }
    const answer = { type: 'ok', outcome: 'accepted' };
    if (last !== null && 'data' in last) answer.value = dataValue(last.data);
    if (last !== null && last.fence !== null && last.fence !== undefined) answer.fence = Number(last.fence);
    if (last !== null && last.version !== null && last.version !== undefined) answer.version = Number(last.version);
    return answer;
  }

  /** End the open transaction; a broken connection's transaction ends with it at the server. */
  async rollback() {
    this.inTransaction = false;
    const c = this.client;
    if (c !== null) await c.query('ROLLBACK').catch(() => this.drop());
  }

  close() {
    this.drop();
  }
}

function bind(param, token) {
  if (param === null || typeof param === 'string') return param;
  if (param.token === 'fence') {
    if (!(typeof token === 'number' && Number.isSafeInteger(token) && token >= 0))
      throw new Fail('no-fencing-token', `token ${JSON.stringify(token)} is not a fencing token`);
    return String(token);
  }
  if (token === undefined || token === null) throw new Fail('no-token', 'no hold to mark under');
  return String(token);
}

/** An exact integer's decimal text reads back as a number (as the built-in client does); other text as it is. */
function dataValue(data) {
  const s = data === null || data === undefined ? '' : String(data);
  if (/^-?(0|[1-9][0-9]*)$/.test(s) && Number.isSafeInteger(Number(s))) return Number(s);
  return s;
}

const ACCESSES = new Set(['read', 'write', 'mark']);

class Handler {
  constructor(lock, resource) {
    this.lock = lock;
    this.resource = resource;
    this.token = undefined;
    this.holding = false;
  }

  withToken(body) {
    return this.token === undefined ? body : { ...body, token: this.token };
  }

  async handle(req) {
    const op = req.op;
    try {
      switch (op) {
        case 'acquire': {
          if (this.holding) throw new Fail('already-held', `this client holds token ${JSON.stringify(this.token)}`);
          const got = await this.lock.acquire(req.ttlMs);
          this.holding = true;
          this.token = got.token;
          return Object.fromEntries(Object.entries({ type: 'ok', ...got }).filter(([, v]) => v !== undefined));
        }
        case 'release': {
          const token = this.token;
          const was = this.holding;
          this.holding = false;
          this.token = undefined;
          // Nothing is sent: this client holds nothing.
          if (!was) throw new Fail('not-held', 'nothing held');
          await this.lock.release();
          return token === undefined ? { type: 'ok' } : { type: 'ok', token };
        }
        case 'read':
        case 'write':
        case 'mark': {
          if (!this.holding) return { type: 'fail', error: 'no-hold', outcome: 'unknown' };
          return this.withToken(await this.resource.run(req.statements, this.token));
        }
        case 'final-read': {
          const a = await this.resource.run(req.statements, this.token);
          return Object.fromEntries(Object.entries(a).filter(([k]) => k === 'type' || k === 'value' || k === 'error'));
        }
        case 'shutdown':
          return { type: 'ok' };
        default:
          return { type: 'fail', error: 'bad-request' };
      }
    } catch (e) {
      const known = e instanceof Fail || e instanceof Info;
      log(known ? `${op}: ${e.message}` : `${op}: unexpected ${e?.stack ?? e}`);
      // A library's surprise: it may have happened.
      const body = { type: e instanceof Fail ? 'fail' : 'info', error: known ? e.code : 'client-error' };
      if (ACCESSES.has(op)) body.outcome = 'unknown';
      return op !== 'acquire' ? this.withToken(body) : body;
    }
  }
}

/**
 * Read FC_CLIENT_CONFIG, build and connect the lock, print the ready line, answer
 * requests until shutdown or the end of input.
 * makeLock(config) → { connect(), acquire(ttlMs) → {token?, lease_ms?, validity_ms?}, release(), close() }.
 */
export async function serve(makeLock, tokenKind, versions) {
  let config;
  try {
    config = JSON.parse(process.env.FC_CLIENT_CONFIG ?? '');
  } catch (e) {
    process.stderr.write(`Expected FC_CLIENT_CONFIG to hold the client configuration (JSON): ${e.message}\n`);
    process.exitCode = 254;
    return;
  }
  const lock = makeLock(config);
  await lock.connect();
  const resource = new Resource(config.pg, config.callTimeoutMs);
  const handler = new Handler(lock, resource);
  const out = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);
  // `transactions`: this helper runs the control statements and the version column (docs/client-protocol.md).
  out({ ready: true, protocol: PROTOCOL_VERSION, token: tokenKind, versions: { node: process.versions.node, ...versions }, features: ['transactions'] });
  // Strictly one request at a time: the next line is read only after this one is answered.
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    // CLOCK_MONOTONIC (libuv's uv_hrtime), the clock the runner reads too: the op cannot have taken effect before this instant.
    const started = process.hrtime.bigint();
    let req;
    try {
      req = JSON.parse(line);
      if (typeof req.id !== 'number') throw new Error('no id');
    } catch {
      out({ id: -1, type: 'fail', error: 'bad-request' });
      continue;
    }
    const answer = await handler.handle(req);
    out({ id: req.id, ...answer, started_ns: String(started) });
    if (req.op === 'shutdown') break;
  }
  lines.close();
  await Promise.resolve(lock.close()).catch(() => undefined);
  resource.close();
  // Library timers (keep-alives, pub/sub, refresh) must not keep the process alive after shutdown.
  setTimeout(() => process.exit(0), 200).unref();
}

/** The version a package reports in its own package.json (the one that actually ran). */
export async function packageVersion(name) {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const { readFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  // Resolve the entry point, then walk up to the package.json that names the package (exports maps hide ./package.json).
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === name) return pkg.version;
    } catch {
      /* not here: go up */
    }
    const up = dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}
