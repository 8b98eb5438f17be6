/**
 * writeLongHistory: a seeded, linearizable-by-construction register history of
 * any length for the long-history bench, in the Jepsen etcd log format
 * (`porcupine-etcd`, what Porcupine's own etcd tests read), JSON Lines, or
 * Jepsen EDN (`edn`: one op map a line, as Jepsen's history.edn).
 *
 * Shape (like the public etcd logs): a few client slots (5 by default), each
 * invoking read / write / cas on one register of small integers, at most one op
 * in flight per slot. An op takes effect the moment it completes (inside its
 * interval, so the history is linearizable); a few time out (`:info`): those
 * take effect or not at random, and their slot continues under a fresh process
 * id, as Jepsen does. Concurrency stays bounded, so a checker's cost per op
 * should not grow with the length. Lines are written in chunks: a million ops
 * never sit in memory as one string.
 *
 * `invalid: true` makes the first read completed after 90% of the ops return
 * a value no op ever writes, so the history is not linearizable.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { Prng } from '../core/random/prng.js';

export interface LongHistorySpec {
  ops: number;
  seed: number;
  processes?: number;
  format?: 'porcupine-etcd' | 'jsonl' | 'edn';
  /** Fraction of ops that time out (`info`); default 0.002. */
  infoRate?: number;
  invalid?: boolean;
}

const VALUES = 5;
const CHUNK_CHARS = 1 << 20;

export function writeLongHistory(path: string, spec: LongHistorySpec): void {
  const rng = new Prng(spec.seed);
  const slots = spec.processes ?? 5;
  const infoRate = spec.infoRate ?? 0.002;
  const format = spec.format ?? 'porcupine-etcd';
  const fd = openSync(path, 'w');
  let buf = '';
  let index = 0;
  const emit = (process: number, type: string, f: string, value: number | null | [number, number] | 'timed-out'): void => {
    if (format === 'porcupine-etcd') {
      const v = value === null ? 'nil' : value === 'timed-out' ? ':timed-out' : Array.isArray(value) ? `[${value[0]} ${value[1]}]` : String(value);
      buf += `INFO  jepsen.util - ${process}\t:${type}\t:${f}\t${v}\n`;
    } else if (format === 'edn') {
      const v = value === null || value === 'timed-out' ? 'nil' : Array.isArray(value) ? `[${value[0]} ${value[1]}]` : String(value);
      buf += `{:index ${index}, :time ${index}, :process ${process}, :type :${type}, :f :${f}, :value ${v}}\n`;
    } else {
      buf += `${JSON.stringify({ index, time: index, process, type, f, value })}\n`;
    }
    index++;
    if (buf.length >= CHUNK_CHARS) {
      writeSync(fd, buf);
      buf = '';
    }
  };

  let register: number | null = null;
  const proc = Array.from({ length: slots }, (_, i) => i);
  const inFlight: ({ f: 'read' | 'write' | 'cas'; arg: number | null | [number, number] } | null)[] = new Array(slots).fill(null);
  let invoked = 0;
  let open = 0;
  const corruptAt = spec.invalid ? Math.floor(spec.ops * 0.9) : -1;
  let completed = 0;
  let corrupted = false;
  while (invoked < spec.ops || open > 0) {
    const s = rng.int(0, slots - 1);
    const op = inFlight[s]!;
    if (op === null) {
      if (invoked >= spec.ops) continue;
      const roll = rng.float();
      const next =
        roll < 0.5
          ? { f: 'read' as const, arg: null }
          : roll < 0.75
            ? { f: 'write' as const, arg: rng.int(0, VALUES - 1) }
            : { f: 'cas' as const, arg: [rng.int(0, VALUES - 1), rng.int(0, VALUES - 1)] as [number, number] };
      inFlight[s] = next;
      emit(proc[s]!, 'invoke', next.f, next.arg);
      invoked++;
      open++;
      continue;
    }
    inFlight[s] = null;
    open--;
    completed++;
    if (rng.float() < infoRate) {
      // Timed out: it took effect or not; either way the history stays linearizable.
      if (op.f !== 'read' && rng.float() < 0.5) register = applied(register, op.f, op.arg);
      emit(proc[s]!, 'info', op.f, format === 'porcupine-etcd' ? 'timed-out' : null);
      proc[s]! += slots;
      continue;
    }
    if (op.f === 'read') {
      const corrupt = !corrupted && corruptAt !== -1 && completed >= corruptAt;
      if (corrupt) corrupted = true;
      const seen = corrupt ? VALUES : register;
      emit(proc[s]!, 'ok', 'read', seen);
    } else if (op.f === 'write') {
      register = op.arg as number;
      emit(proc[s]!, 'ok', 'write', op.arg);
    } else {
      const [from, to] = op.arg as [number, number];
      if (register === from) {
        register = to;
        emit(proc[s]!, 'ok', 'cas', op.arg);
      } else emit(proc[s]!, 'fail', 'cas', op.arg);
    }
  }
  if (buf.length > 0) writeSync(fd, buf);
  closeSync(fd);
}

function applied(register: number | null, f: 'write' | 'cas', arg: number | null | [number, number]): number | null {
  if (f === 'write') return arg as number;
  const [from, to] = arg as [number, number];
  return register === from ? to : register;
}
