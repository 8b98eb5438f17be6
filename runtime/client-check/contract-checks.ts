/**
 * The client contract as checks, one after the other, against two clients
 * (A and B) of the same lock on a real cluster: what `fencecheck client-check`
 * runs and test/integration/clients.test.ts asserts for the built-in clients.
 *
 *   ready          protocol version and token kind announced
 *   acquire        A is granted, with a token of the announced kind
 *   exclusion      B's acquire while A holds waits and fails
 *   release        A releases; a second release is not ok
 *   hand-over      B is granted next, with a larger (monotonic) or different (unique) token
 *   token-order    six more grants: strictly increasing (monotonic) or all distinct (unique)
 *   fence          a fenced write and a claiming read under a token below the
 *                  stored fence are refused; at the token, accepted (and the
 *                  fence stored is the token the client reported)
 *   cas            the mark is the reported token; a write after another mark is refused
 *   paused-holder  A paused past its lease, B granted and writing, then A's
 *                  access when it wakes: refused (fenced, mark changed, or the
 *                  client noticed the loss), or, without a token, accepted
 *
 * Every check reads the resource row itself (PostgreSQL, from the control
 * namespace) where a client's word could lie. A check that cannot run (its
 * precondition failed) is `skip` with the reason, never `pass`.
 */
import type { ClientAnswer, ClientReady, ClientTokenKind } from '../../core/client-protocol.js';
import type { SessionAccess } from '../runner/client-session.js';
import type { RequestBody } from '../runner/ports.js';

export type CheckStatus = 'pass' | 'fail' | 'skip' | 'warn';

export interface CheckResult {
  check: string;
  status: CheckStatus;
  /** One line: what was seen (answers, tokens, times, the row). */
  evidence: string;
}

/** One client as the checks drive it. */
export interface CheckClient {
  readonly name: string;
  call(body: RequestBody, access: SessionAccess): Promise<ClientAnswer>;
  pause(): Promise<void>;
  resume(): Promise<void>;
}

export interface ResourceRow {
  data: string;
  fence: number;
  mark: string | null;
}

export interface CheckWorld {
  a: CheckClient;
  b: CheckClient;
  ready: ClientReady;
  key: string;
  callTimeoutMs: number;
  /** The TTL of ordinary holds: long enough that nothing expires during a check. */
  holdTtlMs: number;
  /** The TTL of the paused holder, and how long it is paused (longer than any lease it can have). */
  pausedTtlMs: number;
  pauseMs: number;
  row(): Promise<ResourceRow>;
  setRow(fence: number, mark: string | null): Promise<void>;
  resetRow(): Promise<void>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

type Token = number | string;

const show = (a: ClientAnswer): string => JSON.stringify(Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'id' && k !== 'started_ns')));

/** A token as an exact integer, when it is one (monotonic tokens may be decimal strings beyond 2^53). */
export function tokenInteger(t: Token | undefined): bigint | undefined {
  if (typeof t === 'number') return Number.isSafeInteger(t) && t >= 0 ? BigInt(t) : undefined;
  return typeof t === 'string' && /^\d+$/.test(t) ? BigInt(t) : undefined;
}

/** Whether a token fits the announced kind, or why not. */
export function tokenFits(kind: ClientTokenKind, t: Token | undefined): string | undefined {
  if (kind === 'monotonic' && tokenInteger(t) === undefined)
    return `a monotonic client must give a non-negative integer token, got ${JSON.stringify(t ?? null)}`;
  if (kind === 'unique' && (t === undefined || t === '')) return 'a unique-token client must give a token';
  return undefined;
}

/** Whether `later` may follow `earlier`, or why not. */
export function tokenFollows(kind: ClientTokenKind, earlier: Token | undefined, later: Token | undefined): string | undefined {
  if (kind === 'none') return undefined;
  if (kind === 'unique') return earlier !== undefined && earlier === later ? `the token ${JSON.stringify(later)} was given twice` : undefined;
  const e = tokenInteger(earlier);
  const l = tokenInteger(later);
  if (e === undefined || l === undefined) return `not integers: ${JSON.stringify(earlier ?? null)} then ${JSON.stringify(later ?? null)}`;
  return l > e ? undefined : `the token went from ${e} to ${l}, not up`;
}

const MODE = (mode: SessionAccess['mode'], key: string): SessionAccess => ({ mode, key });

export async function runContractChecks(w: CheckWorld, say: (r: CheckResult) => void = () => undefined): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const kind = w.ready.token;
  const record = (check: string, status: CheckStatus, evidence: string): boolean => {
    const r = { check, status, evidence };
    results.push(r);
    say(r);
    return status === 'pass' || status === 'warn';
  };
  const skipRest = (names: string[], why: string) => names.forEach((n) => record(n, 'skip', why));
  const acquire = (c: CheckClient, ttlMs = w.holdTtlMs) => c.call({ op: 'acquire', ttlMs }, MODE('none', w.key));
  const release = (c: CheckClient) => c.call({ op: 'release' }, MODE('none', w.key));
  const access = (c: CheckClient, mode: SessionAccess['mode'], body: RequestBody) => c.call(body, MODE(mode, w.key));
  const later = ['acquire', 'exclusion', 'release', 'hand-over', 'token-order', 'fence', 'cas', 'paused-holder'];

  record('ready', 'pass', `protocol ${w.ready.protocol}, token ${kind}, versions ${JSON.stringify(w.ready.versions)}`);
  await w.resetRow();

  // acquire
  const a1 = await acquire(w.a);
  const wrongToken = a1.type === 'ok' ? tokenFits(kind, a1.token) : undefined;
  if (
    !record(
      'acquire',
      a1.type === 'ok' && !wrongToken ? 'pass' : 'fail',
      a1.type !== 'ok' ? `A's acquire on a free lock answered ${show(a1)}` : (wrongToken ?? `A granted: ${show(a1)}`),
    )
  ) {
    skipRest(later.slice(1), 'needs a granted lock');
    return results;
  }

  const b2 = await holdChecks(w, record, acquire, release, a1);
  const grants: Token[] = [a1.token, b2.type === 'ok' ? b2.token : undefined].filter((t): t is Token => t !== undefined);
  await tokenOrderCheck(w, record, acquire, release, grants);

  // fence
  if (kind !== 'monotonic') record('fence', 'skip', `needs monotonic tokens; this client's are ${kind}`);
  else await fenceCheck(w, record, acquire, release, access);

  // cas
  if (kind === 'none') record('cas', 'skip', 'needs a token; this client has none');
  else await casCheck(w, record, acquire, release, access);

  await pausedHolderCheck(w, record, acquire, release, access);
  return results;
}

type Record_ = (check: string, status: CheckStatus, evidence: string) => boolean;
type Acquire = (c: CheckClient, ttlMs?: number) => Promise<ClientAnswer>;
type Release = (c: CheckClient) => Promise<ClientAnswer>;
type Access = (c: CheckClient, mode: SessionAccess['mode'], body: RequestBody) => Promise<ClientAnswer>;

/** exclusion (B waits while A holds), release (once, not twice), hand-over (B after A, its token after A's). B's hand-over grant is returned. */
async function holdChecks(w: CheckWorld, record: Record_, acquire: Acquire, release: Release, a1: ClientAnswer): Promise<ClientAnswer> {
  const kind = w.ready.token;
  const t0 = w.now();
  const b1 = await acquire(w.b);
  const waited = Math.round(w.now() - t0);
  if (b1.type === 'ok') {
    record(
      'exclusion',
      'fail',
      `B was granted (${show(b1)}) while A holds token ${JSON.stringify(a1.token ?? null)}: two holders at once; the client reports a lock it does not hold`,
    );
    await release(w.b);
  } else if (b1.type === 'fail') record('exclusion', 'pass', `B's acquire while A holds answered fail ${b1.error ?? ''} after ${waited} ms`);
  else
    record(
      'exclusion',
      'fail',
      `B's acquire while A holds answered info (${b1.error ?? ''}) after ${waited} ms: a held lock and a healthy service should give a definite fail`,
    );

  const r1 = await release(w.a);
  const r2 = await release(w.a);
  record(
    'release',
    r1.type === 'ok' && r2.type !== 'ok' ? 'pass' : 'fail',
    `A's release ${show(r1)}; a second release ${show(r2)}${r2.type === 'ok' ? ' (ok twice: the client does not track its hold)' : ''}`,
  );

  const b2 = await acquire(w.b);
  if (b2.type !== 'ok') {
    record('hand-over', 'fail', `B's acquire after A released answered ${show(b2)}`);
  } else {
    const why = tokenFits(kind, b2.token) ?? tokenFollows(kind, a1.token, b2.token);
    record(
      'hand-over',
      why ? 'fail' : 'pass',
      `A token ${JSON.stringify(a1.token ?? null)}, then B token ${JSON.stringify(b2.token ?? null)}${why ? `: ${why}` : ''}`,
    );
    await release(w.b);
  }
  return b2;
}

/** Six more grants, A and B in turn: monotonic tokens strictly increase, unique ones never repeat, none gives none. */
async function tokenOrderCheck(w: CheckWorld, record: Record_, acquire: Acquire, release: Release, grants: Token[]): Promise<void> {
  const kind = w.ready.token;
  let orderProblem: string | undefined;
  for (let i = 0; i < 6 && !orderProblem; i++) {
    const c = i % 2 === 0 ? w.a : w.b;
    const g = await acquire(c);
    if (g.type !== 'ok') {
      orderProblem = `grant ${i + 1} (${c.name}) answered ${show(g)}`;
      break;
    }
    if (kind === 'monotonic') orderProblem = tokenFollows(kind, grants[grants.length - 1], g.token);
    else if (kind === 'unique' && grants.includes(g.token!)) orderProblem = `the token ${JSON.stringify(g.token)} was given before`;
    if (g.token !== undefined) grants.push(g.token);
    await release(c);
  }
  const tokensText = grants.map((t) => JSON.stringify(t)).join(', ');
  if (kind === 'none')
    record('token-order', grants.length > 0 ? 'fail' : 'pass', grants.length > 0 ? `announced no token but gave ${tokensText}` : 'no tokens, as announced');
  else
    record(
      'token-order',
      orderProblem ? 'fail' : 'pass',
      `${kind === 'monotonic' ? 'strictly increasing' : 'all distinct'}: ${tokensText}${orderProblem ? `; ${orderProblem}` : ''}`,
    );
}

/** A newer holder's fence (set in the row directly) refuses A's fenced write and claiming read; at A's own token both pass and store it. */
async function fenceCheck(w: CheckWorld, record: Record_, acquire: Acquire, release: Release, access: Access): Promise<void> {
  await w.resetRow();
  const g = await acquire(w.a);
  const t = tokenInteger(g.token);
  if (g.type !== 'ok' || t === undefined) {
    record('fence', 'skip', `A's acquire answered ${show(g)}`);
    return;
  }
  const newer = Number(t) + 1000;
  await w.setRow(newer, null);
  const w1 = await access(w.a, 'fence', { op: 'write', value: 'stale' });
  const r1 = await access(w.a, 'fence-claim', { op: 'read' });
  const afterRefusals = await w.row();
  await w.setRow(Number(t), null);
  const w2 = await access(w.a, 'fence', { op: 'write', value: 'mine' });
  const r2 = await access(w.a, 'fence-claim', { op: 'read' });
  const end = await w.row();
  await release(w.a);
  const problems = [
    w1.type === 'ok' ? `a write under token ${t} was accepted over fence ${newer}` : '',
    r1.type === 'ok' ? `a claiming read under token ${t} was accepted over fence ${newer}` : '',
    afterRefusals.fence !== newer || afterRefusals.data === 'stale' ? `the row changed: ${JSON.stringify(afterRefusals)}` : '',
    w2.type !== 'ok' || r2.type !== 'ok' ? `at its own token the write answered ${show(w2)} and the read ${show(r2)}` : '',
    end.fence !== Number(t) ? `the stored fence is ${end.fence}, not the reported token ${t}: the client bound another token` : '',
  ].filter((p) => p !== '');
  record(
    'fence',
    problems.length === 0 ? 'pass' : 'fail',
    problems.length > 0
      ? problems.join('; ')
      : `over fence ${newer}: write ${w1.error ?? w1.type}, claim ${r1.error ?? r1.type}; at token ${t}: write and claim accepted, fence stored ${end.fence}`,
  );
}

/** The mark is the reported token; after another mark, A's write is refused. */
async function casCheck(w: CheckWorld, record: Record_, acquire: Acquire, release: Release, access: Access): Promise<void> {
  await w.resetRow();
  const g = await acquire(w.a);
  if (g.type !== 'ok') {
    record('cas', 'skip', `A's acquire answered ${show(g)}`);
    return;
  }
  const m = await access(w.a, 'cas-unique', { op: 'mark' });
  const marked = await w.row();
  await w.setRow(marked.fence, 'someone-else');
  const late = await access(w.a, 'cas-unique', { op: 'write', value: 'late' });
  const end = await w.row();
  await release(w.a);
  const problems = [
    m.type !== 'ok' ? `the mark answered ${show(m)}` : '',
    marked.mark !== String(g.token) ? `the stored mark is ${JSON.stringify(marked.mark)}, not the reported token ${JSON.stringify(g.token)}` : '',
    late.type === 'ok' || end.data === 'late' ? `a write after another mark was accepted (${show(late)})` : '',
  ].filter((p) => p !== '');
  record(
    'cas',
    problems.length === 0 ? 'pass' : 'fail',
    problems.length > 0 ? problems.join('; ') : `marked ${JSON.stringify(marked.mark)}; after another mark the write answered ${late.type} ${late.error ?? ''}`,
  );
}

/** A paused past its lease; B granted and writing; A's access when it wakes. */
async function pausedHolderCheck(w: CheckWorld, record: Record_, acquire: Acquire, release: Release, access: Access): Promise<void> {
  await w.resetRow();
  const kind = w.ready.token;
  const mode: SessionAccess['mode'] = kind === 'monotonic' ? 'fence' : kind === 'unique' ? 'cas-unique' : 'none';
  const g = await acquire(w.a, w.pausedTtlMs);
  if (g.type !== 'ok') {
    record('paused-holder', 'skip', `A's acquire answered ${show(g)}`);
    return;
  }
  if (mode === 'cas-unique') await access(w.a, mode, { op: 'mark' });
  const first = await access(w.a, mode, { op: 'write', value: 'a-before' });
  await w.a.pause();
  let b: ClientAnswer | undefined;
  let bWrite: ClientAnswer | undefined;
  const pausedAt = w.now();
  try {
    await w.sleep(w.pauseMs);
    // The lease may take a little longer to lapse on the service: retry B for a while.
    for (const deadline = w.now() + 3 * w.pausedTtlMs + 5000; w.now() < deadline;) {
      b = await acquire(w.b);
      if (b.type === 'ok') break;
      if (b.type === 'info') await release(w.b);
    }
    if (b?.type === 'ok') {
      if (mode === 'cas-unique') await access(w.b, mode, { op: 'mark' });
      bWrite = await access(w.b, mode, { op: 'write', value: 'b-newer' });
    }
  } finally {
    await w.a.resume();
  }
  const pausedFor = Math.round(w.now() - pausedAt);
  if (b?.type !== 'ok') {
    await release(w.a);
    record(
      'paused-holder',
      'skip',
      `untested: the lock did not pass on while A (token ${JSON.stringify(g.token ?? null)}) was paused ${pausedFor} ms with a ${w.pausedTtlMs} ms TTL (B: ${b ? show(b) : 'never asked'})`,
    );
    return;
  }
  const late = await access(w.a, mode, { op: 'write', value: 'a-stale' });
  const end = await w.row();
  await release(w.a);
  await release(w.b);
  const facts = `A token ${JSON.stringify(g.token ?? null)} (first write ${first.type}) paused ${pausedFor} ms; B granted token ${JSON.stringify(b.token ?? null)}, its write ${bWrite?.type}; A's write on waking: ${show(late)}; row data ${JSON.stringify(end.data)} fence ${end.fence}`;
  const refused = late.type !== 'ok' && end.data !== 'a-stale';
  if (kind === 'none') {
    record(
      'paused-holder',
      refused ? 'pass' : 'warn',
      refused ? `refused: ${facts}` : `unprotected (no token to refuse it with, as announced): the stale write went through. ${facts}`,
    );
    return;
  }
  record(
    'paused-holder',
    refused ? 'pass' : 'fail',
    refused ? `refused: ${facts}` : `the stale write went through although the client announced ${kind} tokens: ${facts}`,
  );
}
