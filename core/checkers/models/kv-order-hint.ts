/**
 * kvOrderHint: a guess at one key's linearization (Model.orderHint), read off
 * the values. A get of a key returns the whole string: the put it started
 * from (or the initial "") and every append since, in order. So each get's
 * value reads as a list of writes (its tokens), and the order a get needs
 * next is known. Walk forward from "", at each step linearizing
 *   1. every get that reads the current value and may go now (no op left
 *      returned before it was invoked),
 *   2. else the write the most urgent get (the earliest to return) needs
 *      next: the append that continues toward its value, or the put its value
 *      starts with; before a put, the writes no remaining get reads that must
 *      precede it (the put hides them),
 *   3. else, once no get is left, the remaining writes in the order they
 *      returned,
 *   4. else, when what the urgent get needs waits on a write that returned
 *      before it was invoked, that write just before the put the current
 *      value started from (the put hides it; a get that reads it fails the
 *      proof, and the search decides),
 * and give up (undefined) when none of these can go, or a value does not read
 * as exactly one list of writes. Pending writes no get needs are left out
 * (they may never have taken effect). Identical writes are interchangeable:
 * of those, the first that may go is taken.
 *
 * Why: on a valid kv history the search tries many orders of concurrent
 * appends before the gets rule them out (c50-ok of Porcupine's corpus: 43,143
 * steps for 1,712 ops); the values already say the order. The guess is only
 * a guess: proven-order.ts checks it against the definition with the model's
 * own step, and the search runs whenever it fails, so an invalid history,
 * ambiguous values and anything this walk does not foresee are decided (and
 * witnessed) by the search exactly as before.
 */
import type { Operation } from '../operation.js';
import { kvValueOf, kvWrittenValue } from './kv-values.js';

/** Work per op the walk may spend before giving up (its scans are short on any real history). */
const WORK_PER_OP = 64;

/**
 * No guess for a part whose ops times its longest get value pass this: the walk compares and looks up the whole
 * current value at each step and keeps each get's value as its list of writes, so a long append-only key (10,000
 * appends read back whole) would cost time and memory quadratic in its length. Porcupine's c50 keys: about
 * 200 ops times 1,500 characters; a 1,000,000-op history on 64 keys: about 16,000 ops times 100.
 */
const MAX_OPS_TIMES_VALUE = 1 << 22;

export function kvOrderHint(ops: readonly Operation[]): number[] | undefined {
  const index = indexOps(ops);
  if (index === undefined) return undefined;
  const { appendsOf, putsOf, getsByValue, completedByRet, getsByRet, tokensOf, readers } = index;
  const n = ops.length;
  const done = new Uint8Array(n);
  const order: number[] = [];
  let budget = WORK_PER_OP * n + 1024;
  let state = '';
  let remaining = completedByRet.length;
  let firstOpen = 0;
  let firstGet = 0;
  /** Where in `order` the put the current value started from is (-1: it started from the initial ""). */
  let putAt = -1;

  /**
   * The earliest-returning completed op not yet linearized, other than `except`; undefined when none is left. Two
   * cursors over completedByRet that only move forward (the first open op, and the next open one after it), so a
   * walk scans each op a bounded number of times: an op that stays open long (an unread write) does not make every
   * later question scan everything linearized behind it.
   */
  let secondOpen = 0;
  const earliestOpen = (except: number): number | undefined => {
    while (firstOpen < completedByRet.length && done[completedByRet[firstOpen]!] === 1) firstOpen++;
    if (firstOpen === completedByRet.length) return undefined;
    const first = completedByRet[firstOpen]!;
    if (first !== except) return first;
    if (secondOpen <= firstOpen) secondOpen = firstOpen + 1;
    while (secondOpen < completedByRet.length && done[completedByRet[secondOpen]!] === 1) secondOpen++;
    return secondOpen < completedByRet.length ? completedByRet[secondOpen] : undefined;
  };
  /** Whether op `i` may go now: no completed op left returned before it was invoked (closed intervals). */
  const mayGo = (i: number): boolean => {
    const j = earliestOpen(i);
    return j === undefined || ops[j]!.ret >= ops[i]!.call;
  };
  const take = (i: number): void => {
    done[i] = 1;
    order.push(i);
    const op = ops[i]!;
    if (op.ret !== Infinity) remaining--;
    if (op.f === 'append') state += kvWrittenValue(op);
    else if (op.f === 'put') {
      state = kvWrittenValue(op);
      putAt = order.length - 1;
    } else for (const token of tokensOf.get(i)!) readers.set(token, readers.get(token)! - 1);
  };
  /**
   * Whether op `b` may stand at `at` in the order so far: nothing after it returned before it was invoked. (Nothing
   * before it was invoked after it returned: each of those was taken while `b` was open, so mayGo held against it.)
   */
  const fitsAt = (b: number, at: number): boolean => {
    for (let k = at; k < order.length; k++) {
      budget--;
      if (ops[order[k]!]!.ret < ops[b]!.call) return false;
    }
    return true;
  };
  /** Of identical writes not yet linearized, the first that may go, else the first; undefined when none is left. */
  const pick = (same: readonly number[] | undefined): number | undefined => {
    let first: number | undefined;
    for (const w of same ?? []) {
      if (done[w] === 1) continue;
      if (mayGo(w)) return w;
      first ??= w;
    }
    return first;
  };
  /**
   * Before put `put`: while it may not go yet, the write that returned first, if no remaining get reads it (the put
   * hides it from every later get) and it may go. A write no get reads that need not precede the put waits for a
   * later put, or for the end.
   */
  const takeUnreadBefore = (put: number): void => {
    while (!mayGo(put)) {
      const w = earliestOpen(put);
      if (w === undefined || ops[w]!.f === 'get' || readers.get(kvWrittenValue(ops[w]!)) !== 0 || !mayGo(w)) return;
      take(w);
    }
  };

  while (remaining > 0) {
    if (--budget < 0) return undefined;
    let read = false;
    for (const g of getsByValue.get(state) ?? [])
      if (done[g] === 0 && mayGo(g)) {
        take(g);
        read = true;
      }
    if (read) continue;
    while (firstGet < getsByRet.length && done[getsByRet[firstGet]!] === 1) firstGet++;
    const urgent = getsByRet[firstGet];
    if (urgent === undefined) {
      // No get left: the writes in the order they returned (any order of them is legal).
      const first = earliestOpen(-1)!;
      if (!mayGo(first)) return undefined;
      take(first);
      continue;
    }
    const tokens = tokensOf.get(urgent)!;
    const wanted = nextWrite(tokens, state, pick, appendsOf, putsOf);
    if (wanted !== undefined && ops[wanted]!.f === 'put' && done[wanted] === 0) takeUnreadBefore(wanted);
    if (wanted !== undefined && done[wanted] === 0 && mayGo(wanted)) {
      take(wanted);
      continue;
    }
    const blocker = earliestOpen(wanted ?? urgent);
    if (blocker === undefined || ops[blocker]!.f === 'get' || putAt === -1 || !fitsAt(blocker, putAt)) return undefined;
    done[blocker] = 1;
    remaining--;
    order.splice(putAt, 0, blocker);
    putAt++;
  }
  return budget < 0 ? undefined : order;
}

/**
 * The write that moves the key from `state` toward the get whose value reads as `tokens` (its put's value or ''
 * first, then its appends'): the next of those appends when the state is the first of them, else the get's put
 * (none for a get that reads from the initial "").
 */
function nextWrite(
  tokens: readonly string[],
  state: string,
  pick: (same: readonly number[] | undefined) => number | undefined,
  appendsOf: Map<string, number[]>,
  putsOf: Map<string, number[]>,
): number | undefined {
  if (state.startsWith(tokens[0]!)) {
    let at = tokens[0]!.length;
    for (let k = 1; k < tokens.length; k++) {
      if (at === state.length) return pick(appendsOf.get(tokens[k]!));
      if (!state.startsWith(tokens[k]!, at)) break;
      at += tokens[k]!.length;
    }
  }
  // A value that starts with a string both a put and an append wrote reads as the put's (tokenize): from "", the
  // append reaches the same state.
  return pick(putsOf.get(tokens[0]!)) ?? (state === '' && tokens[0] !== '' ? pick(appendsOf.get(tokens[0]!)) : undefined);
}

interface OpIndex {
  /** Appends by the value they append, earliest return first (identical appends are interchangeable). */
  appendsOf: Map<string, number[]>;
  /** Puts by the value they put, earliest return first. */
  putsOf: Map<string, number[]>;
  /** Completed gets by the value they read. */
  getsByValue: Map<string, number[]>;
  /** Completed ops (gets among them), earliest return first. */
  completedByRet: number[];
  /** Completed gets, earliest return first. */
  getsByRet: number[];
  /** Each completed get's value as its writes: the put's value ('' for the initial value), then the appends'. */
  tokensOf: Map<number, string[]>;
  /** Per written value, how many gets not yet linearized read it (0 for a value no get reads). */
  readers: Map<string, number>;
}

/** What the walk reads of the part; undefined where a value does not read as exactly one list of writes. */
function indexOps(ops: readonly Operation[]): OpIndex | undefined {
  const appendsOf = new Map<string, number[]>();
  const putsOf = new Map<string, number[]>();
  const getsByValue = new Map<string, number[]>();
  const completedByRet: number[] = [];
  const getsByRet: number[] = [];
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const same = map.get(key);
    if (same === undefined) map.set(key, [i]);
    else same.push(i);
  };
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.f === 'append' || op.f === 'put') {
      const v = kvWrittenValue(op);
      // An empty append is invisible in every later value.
      if (op.f === 'append' && v === '') return undefined;
      add(op.f === 'append' ? appendsOf : putsOf, v, i);
    } else if (op.f === 'get') {
      if (op.ret === Infinity) continue;
      const v = kvValueOf(op.output);
      if (typeof v !== 'string') return undefined;
      add(getsByValue, v, i);
      getsByRet.push(i);
    } else return undefined;
    if (op.ret !== Infinity) completedByRet.push(i);
  }
  let longest = 0;
  for (const v of getsByValue.keys()) longest = Math.max(longest, v.length);
  if (ops.length * longest > MAX_OPS_TIMES_VALUE) return undefined;
  const byRet = (a: number, b: number) => ops[a]!.ret - ops[b]!.ret || a - b;
  completedByRet.sort(byRet);
  getsByRet.sort(byRet);
  for (const same of [...appendsOf.values(), ...putsOf.values()]) same.sort(byRet);
  const readers = new Map<string, number>();
  for (const v of [...appendsOf.keys(), ...putsOf.keys()]) readers.set(v, 0);
  const tokensOf = new Map<number, string[]>();
  const appendLengths = [...new Set([...appendsOf.keys()].map((v) => v.length))];
  const putLengths = [...new Set([...putsOf.keys()].map((v) => v.length))];
  const parsed = new Map<string, string[] | undefined>();
  for (const g of getsByRet) {
    const v = kvValueOf(ops[g]!.output) as string;
    if (!parsed.has(v)) parsed.set(v, tokenize(v, appendsOf, putsOf, appendLengths, putLengths));
    const tokens = parsed.get(v);
    if (tokens === undefined) return undefined;
    tokensOf.set(g, tokens);
    for (const token of new Set(tokens)) if (readers.has(token)) readers.set(token, readers.get(token)! + 1);
  }
  return { appendsOf, putsOf, getsByValue, completedByRet, getsByRet, tokensOf, readers };
}

/**
 * `value` as its writes: a put's value or '' first, then appends' values; undefined unless exactly one reading
 * exists at every position (a value that could be two different writes there gives no guess).
 */
function tokenize(
  value: string,
  appendsOf: Map<string, number[]>,
  putsOf: Map<string, number[]>,
  appendLengths: readonly number[],
  putLengths: readonly number[],
): string[] | undefined {
  // The string the value starts from: a put's value, or "" (an append's value at 0, or the empty value). A put's
  // value that an append also wrote is one string read two ways, the same state either way: it reads as the put's.
  const starts = new Set(putLengths.filter((len) => len <= value.length && putsOf.has(value.slice(0, len))).map((len) => value.slice(0, len)));
  const appendsAtZero = appendLengths.filter((len) => len <= value.length && appendsOf.has(value.slice(0, len))).map((len) => value.slice(0, len));
  if (appendsAtZero.length > 0 && !(starts.size === 1 && appendsAtZero.length === 1 && starts.has(appendsAtZero[0]!))) starts.add('');
  if (value === '') starts.add('');
  if (starts.size !== 1) return undefined;
  const first = [...starts][0]!;
  const tokens = [first];
  for (let at = first.length; at < value.length;) {
    let token: string | undefined;
    for (const len of appendLengths) {
      if (at + len > value.length) continue;
      const t = value.substr(at, len);
      if (!appendsOf.has(t)) continue;
      if (token !== undefined) return undefined;
      token = t;
    }
    if (token === undefined) return undefined;
    tokens.push(token);
    at += token.length;
  }
  return tokens;
}
