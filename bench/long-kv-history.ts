/**
 * writeLongKvHistory: a seeded, linearizable-by-construction key-value history
 * of any length in Porcupine's kv log format (`{:process 3, :type :invoke, :f
 * :put, :key "7", :value "x 3 12 y"}`), for the bench rows of a long history
 * with many keys (many partitions).
 *
 * Shape (like Porcupine's c10/c50 logs, longer): client slots (10 by default),
 * each with at most one op in flight, on `keys` keys; get 50%, put 35%,
 * append 15%. An op takes effect the moment it completes. Values stay short:
 * an append lands on a value that a put resets often, and a value longer than
 * 64 characters is replaced by the next put anyway, since appends only happen
 * to short values (a get that returned ever-growing strings would make the
 * file quadratic). A few ops time out (`:info`) and take effect or not; their
 * slot continues under a fresh process id, as Jepsen does.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { Prng } from '../core/random/prng.js';

export interface LongKvHistorySpec {
  ops: number;
  seed: number;
  keys?: number;
  processes?: number;
  /** Fraction of ops that time out (`info`); default 0.001. */
  infoRate?: number;
}

const CHUNK_CHARS = 1 << 20;
const MAX_APPEND_TO = 64;

type KvOp = { f: 'get'; key: string } | { f: 'put' | 'append'; key: string; value: string };

export function writeLongKvHistory(path: string, spec: LongKvHistorySpec): void {
  const rng = new Prng(spec.seed);
  const slots = spec.processes ?? 10;
  const keys = spec.keys ?? 64;
  const infoRate = spec.infoRate ?? 0.001;
  const store = new Map<string, string>();
  const fd = openSync(path, 'w');
  let buf = '';
  const emit = (process: number, type: string, op: KvOp, value: string | null): void => {
    buf += `{:process ${process}, :type :${type}, :f :${op.f}, :key ${JSON.stringify(op.key)}, :value ${value === null ? 'nil' : JSON.stringify(value)}}\n`;
    if (buf.length >= CHUNK_CHARS) {
      writeSync(fd, buf);
      buf = '';
    }
  };
  const proc = Array.from({ length: slots }, (_, i) => i);
  const inFlight: (KvOp | null)[] = new Array(slots).fill(null);
  let invoked = 0;
  let open = 0;
  while (invoked < spec.ops || open > 0) {
    const s = rng.int(0, slots - 1);
    const op = inFlight[s]!;
    if (op === null) {
      if (invoked >= spec.ops) continue;
      const key = String(rng.int(0, keys - 1));
      const roll = rng.float();
      const value = `x ${proc[s]!} ${invoked} y`;
      const current = store.get(key) ?? '';
      const next: KvOp =
        roll < 0.5 ? { f: 'get', key } : roll < 0.85 || current.length > MAX_APPEND_TO ? { f: 'put', key, value } : { f: 'append', key, value };
      inFlight[s] = next;
      emit(proc[s]!, 'invoke', next, next.f === 'get' ? null : next.value);
      invoked++;
      open++;
      continue;
    }
    inFlight[s] = null;
    open--;
    if (rng.float() < infoRate) {
      if (op.f !== 'get' && rng.float() < 0.5) apply(store, op);
      emit(proc[s]!, 'info', op, op.f === 'get' ? null : op.value);
      proc[s]! += slots;
      continue;
    }
    if (op.f === 'get') emit(proc[s]!, 'ok', op, store.get(op.key) ?? '');
    else {
      apply(store, op);
      emit(proc[s]!, 'ok', op, op.value);
    }
  }
  if (buf.length > 0) writeSync(fd, buf);
  closeSync(fd);
}

function apply(store: Map<string, string>, op: KvOp): void {
  if (op.f === 'put') store.set(op.key, op.value);
  else if (op.f === 'append') store.set(op.key, (store.get(op.key) ?? '') + op.value);
}
