/**
 * trainingHistories: small seeded histories for the code cache's training run
 * (train-code-cache.ts), one per history format and model a user checks.
 *
 * What matters is that every function a real check calls is called (V8 caches
 * the bytecode of the functions that ran), not the histories' size: so a few
 * hundred ops with concurrency (the search backtracks), the op kinds the
 * public corpus has (cas that fails, ops that time out), and an invalid one of
 * each model (the witness). Linearizable by construction: five client slots,
 * at most one op in flight each, an op taking effect the moment it completes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Prng } from '../core/random/prng.js';

type Op = { f: 'read' | 'write' | 'cas'; value: number | null | [number, number] };
type Event = { process: number; type: 'invoke' | 'ok' | 'fail' | 'info'; op: Op; out: number | null | [number, number] };

/**
 * A register's ops (read, write, cas; a cas that finds another value fails) as events in time order, some
 * timing out (info: taking effect or not; the slot goes on as a fresh process, as Jepsen's do); when `invalid`,
 * a last read of 99, which nothing wrote.
 */
function registerEvents(seed: number, ops: number, invalid: boolean): Event[] {
  const rng = new Prng(seed);
  const events: Event[] = [];
  const inFlight = new Map<number, Op>();
  const processOf = [0, 1, 2, 3, 4];
  let register: number | null = null;
  let done = 0;
  while (done < ops) {
    const slot = rng.int(0, 4);
    const process = processOf[slot]!;
    const op = inFlight.get(slot);
    if (op === undefined) {
      const roll = rng.float();
      const next: Op =
        roll < 0.4 ? { f: 'read', value: null } : roll < 0.7 ? { f: 'write', value: rng.int(0, 4) } : { f: 'cas', value: [rng.int(0, 4), rng.int(0, 4)] };
      inFlight.set(slot, next);
      events.push({ process, type: 'invoke', op: next, out: next.value });
      continue;
    }
    inFlight.delete(slot);
    done++;
    if (op.f !== 'read' && rng.float() < 0.05) {
      if (rng.float() < 0.5)
        register = op.f === 'write' ? (op.value as number) : register === (op.value as [number, number])[0] ? (op.value as [number, number])[1] : register;
      events.push({ process, type: 'info', op, out: null });
      processOf[slot] = process + 5;
    } else if (op.f === 'cas') {
      const [from, to] = op.value as [number, number];
      const ok = register === from;
      if (ok) register = to;
      events.push({ process, type: ok ? 'ok' : 'fail', op, out: op.value });
    } else {
      if (op.f === 'write') register = op.value as number;
      events.push({ process, type: 'ok', op, out: op.f === 'read' ? register : op.value });
    }
  }
  if (invalid)
    events.push(
      { process: 99, type: 'invoke', op: { f: 'read', value: null }, out: null },
      { process: 99, type: 'ok', op: { f: 'read', value: null }, out: 99 },
    );
  return events;
}

/** Writes the histories into `dir`; the fencecheck check argument lists that check them. */
export function trainingHistories(dir: string): string[][] {
  const at = (name: string) => join(dir, name);
  const edn = (v: Event['out']) => (v === null ? 'nil' : Array.isArray(v) ? `[${v[0]} ${v[1]}]` : String(v));
  for (const [name, invalid] of [
    ['ok', false],
    ['bad', true],
  ] as const) {
    // The invalid ones short: with ops that timed out, a search has to try every order of them before it fails.
    const events = registerEvents(invalid ? 2 : 1, invalid ? 40 : 300, invalid);
    writeFileSync(
      at(`${name}.log`),
      events.map((e) => `INFO  jepsen.util - ${e.process}\t:${e.type}\t:${e.op.f}\t${e.type === 'info' ? ':timed-out' : edn(e.out)}\n`).join(''),
    );
    writeFileSync(
      at(`${name}.edn`),
      events.map((e, i) => `{:index ${i}, :time ${i}, :process ${e.process}, :type :${e.type}, :f :${e.op.f}, :value ${edn(e.out)}}\n`).join(''),
    );
    writeFileSync(
      at(`${name}.jsonl`),
      events.map((e, i) => `${JSON.stringify({ index: i, time: i, process: e.process, type: e.type, f: e.op.f, value: e.out })}\n`).join(''),
    );
    // The same events as gets (reads) and appends (the rest) on two keys, an append of a string of its own
    // that takes effect when it completes ok (never when it failed or timed out); a get returns the key's value.
    const values = new Map<string, string>();
    const appended = new Map<Op, string>();
    const kv = events.map((e, i) => {
      const key = String(e.process % 2);
      if (e.op.f === 'read') {
        const value = e.type === 'invoke' ? null : e.out === 99 ? 'x 99 y' : (values.get(key) ?? '');
        return `{:process ${e.process}, :type :${e.type}, :f :get, :key "${key}", :value ${value === null ? 'nil' : JSON.stringify(value)}}\n`;
      }
      if (!appended.has(e.op)) appended.set(e.op, `x ${e.process} ${i} y`);
      const value = appended.get(e.op)!;
      if (e.type === 'ok') values.set(key, (values.get(key) ?? '') + value);
      return `{:process ${e.process}, :type :${e.type}, :f :append, :key "${key}", :value ${JSON.stringify(value)}}\n`;
    });
    writeFileSync(at(`${name}.txt`), kv.join(''));
  }
  return [
    ['check', at('ok.log'), at('bad.log'), '--model', 'etcd'],
    ['check', at('ok.txt'), at('bad.txt'), '--model', 'kv'],
    ['check', at('ok.edn'), at('bad.edn'), '--model', 'cas-register'],
    ['check', at('ok.jsonl'), at('bad.jsonl'), '--model', 'cas-register', '--json'],
  ];
}
