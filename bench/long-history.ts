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

type Arg = number | null | [number, number];
type Value = Arg | 'timed-out';
interface PendingOp {
  f: 'read' | 'write' | 'cas';
  arg: Arg;
}

/** One history line in the format asked for (pure). */
export function historyLine(format: NonNullable<LongHistorySpec['format']>, index: number, process: number, type: string, f: string, value: Value): string {
  if (format === 'porcupine-etcd') {
    const v = value === null ? 'nil' : value === 'timed-out' ? ':timed-out' : Array.isArray(value) ? `[${value[0]} ${value[1]}]` : String(value);
    return `INFO  jepsen.util - ${process}\t:${type}\t:${f}\t${v}\n`;
  }
  if (format === 'edn') {
    const v = value === null || value === 'timed-out' ? 'nil' : Array.isArray(value) ? `[${value[0]} ${value[1]}]` : String(value);
    return `{:index ${index}, :time ${index}, :process ${process}, :type :${type}, :f :${f}, :value ${v}}\n`;
  }
  return `${JSON.stringify({ index, time: index, process, type, f, value })}\n`;
}

/** Lines written in chunks of about a MB: a million ops never sit in memory as one string. */
class ChunkedFile {
  private buf = '';
  constructor(private readonly fd: number) {}
  write(line: string): void {
    this.buf += line;
    if (this.buf.length >= CHUNK_CHARS) this.flush();
  }
  flush(): void {
    if (this.buf.length > 0) writeSync(this.fd, this.buf);
    this.buf = '';
  }
}

/** The next op a free slot invokes: half reads, a quarter writes, a quarter cas, over VALUES values. */
function drawOp(rng: Prng): PendingOp {
  const roll = rng.float();
  if (roll < 0.5) return { f: 'read', arg: null };
  if (roll < 0.75) return { f: 'write', arg: rng.int(0, VALUES - 1) };
  return { f: 'cas', arg: [rng.int(0, VALUES - 1), rng.int(0, VALUES - 1)] };
}

export function writeLongHistory(path: string, spec: LongHistorySpec): void {
  const rng = new Prng(spec.seed);
  const slots = spec.processes ?? 5;
  const infoRate = spec.infoRate ?? 0.002;
  const format = spec.format ?? 'porcupine-etcd';
  const fd = openSync(path, 'w');
  const out = new ChunkedFile(fd);
  let index = 0;
  const emit = (process: number, type: string, f: string, value: Value): void => out.write(historyLine(format, index++, process, type, f, value));

  let register: number | null = null;
  const proc = Array.from({ length: slots }, (_, i) => i);
  const inFlight: (PendingOp | null)[] = new Array(slots).fill(null);
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
      const next = drawOp(rng);
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
    const corrupt = op.f === 'read' && !corrupted && corruptAt !== -1 && completed >= corruptAt;
    if (corrupt) corrupted = true;
    const done = complete(register, op, corrupt);
    register = done.register;
    emit(proc[s]!, done.type, op.f, done.value);
  }
  out.flush();
  closeSync(fd);
}

/** An op that completes now, taking effect at this moment (a corrupt read sees a value nobody wrote). */
function complete(register: number | null, op: PendingOp, corrupt: boolean): { register: number | null; type: 'ok' | 'fail'; value: Arg } {
  if (op.f === 'read') return { register, type: 'ok', value: corrupt ? VALUES : register };
  if (op.f === 'write') return { register: op.arg as number, type: 'ok', value: op.arg };
  const [from, to] = op.arg as [number, number];
  return register === from ? { register: to, type: 'ok', value: op.arg } : { register, type: 'fail', value: op.arg };
}

function applied(register: number | null, f: 'write' | 'cas', arg: number | null | [number, number]): number | null {
  if (f === 'write') return arg as number;
  const [from, to] = arg as [number, number];
  return register === from ? to : register;
}
