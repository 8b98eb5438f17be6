/**
 * The request loop of a client process: one JSON request per line in, one
 * JSON answer per line out, strictly one at a time and in order (the next
 * line is not read until the answer to this one is written). It ends on
 * `shutdown` (answered first) or at the end of the input.
 *
 * A line that is not a valid request is answered `fail bad-request` (nothing
 * was done), with its id when it has one, else id -1.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Value } from '../../core/history/op.js';
import type { ClientAnswer, ClientRequest, Statement } from '../../core/client-protocol.js';
import type { Clock } from '../../core/clock.js';
import { realClock } from '../hosts/real-clock.js';

export interface Handler {
  handle(req: ClientRequest): Promise<ClientAnswer>;
}

const OPS = new Set(['acquire', 'release', 'read', 'write', 'mark', 'final-read', 'shutdown']);

/** A request line checked, or why it is not one. */
export function parseRequest(line: string): ClientRequest | { id: number; problem: string } {
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return { id: -1, problem: 'not JSON' };
  }
  const r = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
  const id = r['id'];
  if (typeof id !== 'number' || !Number.isInteger(id)) return { id: -1, problem: 'no integer id' };
  if (typeof r['op'] !== 'string' || !OPS.has(r['op'])) return { id, problem: `unknown op ${JSON.stringify(r['op'])}` };
  if (r['op'] === 'acquire') {
    const ttl = r['ttlMs'];
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl <= 0) return { id, problem: 'acquire needs ttlMs, a positive integer' };
    return { id, op: 'acquire', ttlMs: ttl };
  }
  if (r['op'] === 'acquire' || r['op'] === 'release' || r['op'] === 'shutdown') return { id, op: r['op'] } as ClientRequest;
  const statements = parseStatements(r['statements']);
  if (typeof statements === 'string') return { id, problem: statements };
  if (r['op'] === 'write') return { id, op: 'write', value: (r['value'] ?? null) as Value, statements };
  return { id, op: r['op'] as 'read' | 'mark' | 'final-read', statements };
}

/** An access's statements checked, or what is wrong with them. */
export function parseStatements(v: unknown): Statement[] | string {
  if (!Array.isArray(v)) return 'an access needs statements, a list';
  for (const [i, s] of v.entries()) {
    const st = (typeof s === 'object' && s !== null ? s : {}) as Record<string, unknown>;
    if (typeof st['sql'] !== 'string' || st['sql'] === '') return `statements[${i}] needs sql, a string`;
    if (typeof st['rejectIfNoRow'] !== 'string') return `statements[${i}] needs rejectIfNoRow, a string`;
    if (st['readOnly'] !== undefined && typeof st['readOnly'] !== 'boolean') return `statements[${i}].readOnly must be true or false`;
    if (!Array.isArray(st['params']) || !st['params'].every(isParam)) return `statements[${i}].params must be texts, nulls or {"token":"fence"|"unique"}`;
  }
  return v as Statement[];
}

function isParam(p: unknown): boolean {
  if (p === null || typeof p === 'string') return true;
  const t = (typeof p === 'object' ? p : {}) as Record<string, unknown>;
  return (t['token'] === 'fence' || t['token'] === 'unique') && Object.keys(t).length === 1;
}

function write(out: Writable, answer: ClientAnswer): Promise<void> {
  return new Promise((resolve) => out.write(`${JSON.stringify(answer)}\n`, () => resolve()));
}

/** The loop over a process's stdin and stdout (readline; a line is read only once the previous answer is written). */
export async function serveRequests(
  input: Readable,
  output: Writable,
  handler: Handler,
  log: (line: string) => void,
  clock: Clock = realClock,
): Promise<'shutdown' | 'end'> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  return serveLines(
    lines,
    (a) => write(output, a),
    handler,
    log,
    clock,
    () => lines.close(),
  );
}

/** The loop over any line source (the simulation's pipes too): `close` stops the source after a shutdown. */
export async function serveLines(
  lines: AsyncIterable<string>,
  answer: (a: ClientAnswer) => Promise<void>,
  handler: Handler,
  log: (line: string) => void,
  clock: Clock,
  close: () => void,
): Promise<'shutdown' | 'end'> {
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const req = parseRequest(line);
    if ('problem' in req) {
      log(`bad request (${req.problem}): ${line.slice(0, 200)}`);
      await answer({ id: req.id, type: 'fail', error: 'bad-request' });
      continue;
    }
    // Read the monotonic clock before doing anything: the op cannot take effect before this instant.
    const startedNs = clock.nowNs();
    await answer({ ...(await handler.handle(req)), started_ns: String(startedNs) });
    if (req.op === 'shutdown') {
      close();
      return 'shutdown';
    }
  }
  return 'end';
}
