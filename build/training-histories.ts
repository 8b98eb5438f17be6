/**
 * trainingHistories: small seeded histories for the code cache's training run
 * (train-code-cache.ts), one per history format and model a user checks.
 *
 * What matters is that every function a real check calls is called (V8 caches
 * the bytecode of the functions that ran), not the histories' size: so a few
 * hundred ops with concurrency (the search backtracks), and an invalid one of
 * each model (the witness). Linearizable by construction: five client slots,
 * at most one op in flight each, an op taking effect the moment it completes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Prng } from '../core/random/prng.js';

type Op = { f: string; value: number | null; key?: string };

/** A register's ops as events (process, type, op, value) in time order; when `invalid`, a last read of 99, never written. */
function registerEvents(seed: number, ops: number, invalid: boolean): { process: number; type: string; op: Op; out: number | null }[] {
  const rng = new Prng(seed);
  const events: { process: number; type: string; op: Op; out: number | null }[] = [];
  const inFlight = new Map<number, Op>();
  let register: number | null = null;
  let done = 0;
  while (done < ops) {
    const slot = rng.int(0, 4);
    const op = inFlight.get(slot);
    if (op === undefined) {
      const next: Op = rng.float() < 0.5 ? { f: 'read', value: null } : { f: 'write', value: rng.int(0, 4) };
      inFlight.set(slot, next);
      events.push({ process: slot, type: 'invoke', op: next, out: next.value });
      continue;
    }
    inFlight.delete(slot);
    if (op.f === 'write') register = op.value;
    done++;
    events.push({ process: slot, type: 'ok', op, out: op.f === 'read' ? register : op.value });
  }
  if (invalid)
    events.push({ process: 9, type: 'invoke', op: { f: 'read', value: null }, out: null }, { process: 9, type: 'ok', op: { f: 'read', value: null }, out: 99 });
  return events;
}

/** Writes the histories into `dir`; the fencecheck check argument lists that check them. */
export function trainingHistories(dir: string): string[][] {
  const at = (name: string) => join(dir, name);
  const nil = (v: number | null) => (v === null ? 'nil' : String(v));
  for (const [name, invalid] of [
    ['ok', false],
    ['bad', true],
  ] as const) {
    const events = registerEvents(invalid ? 2 : 1, 300, invalid);
    writeFileSync(at(`${name}.log`), events.map((e) => `INFO  jepsen.util - ${e.process}\t:${e.type}\t:${e.op.f}\t${nil(e.out)}\n`).join(''));
    writeFileSync(
      at(`${name}.edn`),
      events.map((e, i) => `{:index ${i}, :time ${i}, :process ${e.process}, :type :${e.type}, :f :${e.op.f}, :value ${nil(e.out)}}\n`).join(''),
    );
    writeFileSync(
      at(`${name}.jsonl`),
      events.map((e, i) => `${JSON.stringify({ index: i, time: i, process: e.process, type: e.type, f: e.op.f, value: e.out })}\n`).join(''),
    );
    // The same events as appends and gets on two keys (a write of v appends "x v y"; a read gets the key's value).
    const values = new Map<string, string>();
    const kv = events.map((e) => {
      const key = String(e.process % 2);
      const f = e.op.f === 'read' ? 'get' : 'append';
      let value: string | null = e.op.f === 'read' ? null : `x ${e.out} y`;
      if (e.type === 'ok' && f === 'append') values.set(key, (values.get(key) ?? '') + value);
      if (e.type === 'ok' && f === 'get') value = e.out === 99 ? 'x 99 y' : (values.get(key) ?? '');
      return `{:process ${e.process}, :type :${e.type}, :f :${f}, :key "${key}", :value ${value === null ? 'nil' : JSON.stringify(value)}}\n`;
    });
    writeFileSync(at(`${name}.txt`), kv.join(''));
  }
  return [
    ['check', at('ok.log'), at('bad.log'), '--model', 'etcd'],
    ['check', at('ok.txt'), at('bad.txt'), '--model', 'kv'],
    ['check', at('ok.edn'), at('bad.edn'), '--model', 'cas-register'],
    ['check', at('ok.jsonl'), at('bad.jsonl'), '--model', 'register', '--json'],
  ];
}
