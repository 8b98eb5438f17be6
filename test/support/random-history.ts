/**
 * Seeded generators (fast-check arbitraries) of random histories, one per
 * model, for testing the linearizability checker.
 *
 * `historyArbitrary`: small histories for the brute-force reference. A plan
 * of 2 to 8 operations spread over up to 5 workers, each completing ok, fail,
 * info or never; an interleaving of the workers' events; and times. As in
 * Jepsen, a worker whose op ended info (or never ended) takes a fresh process
 * id. Times mostly advance by 0, 1 or 2, so ties between one op's return and
 * another's call are common (closed intervals); one history in ten has
 * scrambled times, usually going backwards (the checker must then order by
 * index); some carry nemesis events, to be ignored. Value domains are small
 * so that valid and invalid histories are both common.
 *
 * `linearizableHistoryArbitrary`: larger histories that are linearizable by
 * construction, a one-sided oracle beyond the brute force's reach (kv: with
 * `uniqueWrites`, every put and append writes a value of its own).
 */
import fc from 'fast-check';
import type { History, Op, OpType, Process, Value } from '../../core/history/op.js';
import type { ModelName } from '../../core/checkers/models/registry.js';

/** One event of a hand-written or generated history; `time` defaults to the index. */
export interface EventSpec {
  process: Process;
  type: OpType;
  f: string;
  value?: Value;
  time?: number;
}

/** Number the events into a history. */
export function buildHistory(events: readonly EventSpec[]): History {
  return events.map((e, index) => ({ index, time: e.time ?? index, process: e.process, type: e.type, f: e.f, value: e.value ?? null }));
}

/** What an operation does: its f, the invocation's value, and the value an `ok` completion returns. */
export interface OpShape {
  f: string;
  input: Value;
  output: Value;
}

type Outcome = 'ok' | 'fail' | 'info' | 'none';

interface PlannedOp {
  worker: number;
  shape: OpShape;
  outcome: Outcome;
}

type Timing = { kind: 'monotonic'; deltas: number[] } | { kind: 'scrambled'; times: number[] };

interface Plan {
  workers: number;
  ops: PlannedOp[];
  picks: number[];
  timing: Timing;
  nemesisAt: number[];
}

export const MAX_OPS = 8;
const MAX_WORKERS = 5;
const MAX_EVENTS = 2 * MAX_OPS + 2;

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('ok' as const) },
  { weight: 3, arbitrary: fc.constant('fail' as const) },
  { weight: 3, arbitrary: fc.constant('info' as const) },
  { weight: 2, arbitrary: fc.constant('none' as const) },
);

const timing: fc.Arbitrary<Timing> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      kind: fc.constant('monotonic' as const),
      deltas: fc.array(fc.constantFrom(0, 0, 1, 1, 2), { minLength: MAX_EVENTS, maxLength: MAX_EVENTS }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('scrambled' as const), times: fc.array(fc.nat(12), { minLength: MAX_EVENTS, maxLength: MAX_EVENTS }) }),
  },
);

const register = fc.constantFrom<Value>(1, 2);
const readOutput = fc.constantFrom<Value>(null, 1, 1, 2, 2);

function read(output: fc.Arbitrary<Value>): fc.Arbitrary<OpShape> {
  return output.map((v) => ({ f: 'read', input: null, output: v }));
}

function write(): fc.Arbitrary<OpShape> {
  return register.map((v) => ({ f: 'write', input: v, output: v }));
}

function cas(): fc.Arbitrary<OpShape> {
  return fc.tuple(register, register).map(([from, to]) => ({ f: 'cas', input: [from, to], output: [from, to] }));
}

const KEYS = ['a', 'b', 'c'];

function kvOp(keys: number): fc.Arbitrary<OpShape> {
  const key = fc.nat(keys - 1).map((i) => KEYS[i]!);
  return fc.oneof(
    fc.tuple(key, fc.constantFrom('', 'x', 'y', 'xy', 'yx', 'xx', 'xyx')).map(([k, v]) => ({ f: 'get', input: [k, null], output: [k, v] })),
    fc.tuple(key, fc.constantFrom('x', 'y')).map(([k, v]) => ({ f: 'put', input: [k, v], output: [k, v] })),
    fc.tuple(key, fc.constantFrom('x', 'y')).map(([k, v]) => ({ f: 'append', input: [k, v], output: [k, v] })),
  );
}

/** The operations a model's histories are made of (kv: over 1 to 3 keys, one key count per history). */
export function opShapes(model: ModelName): fc.Arbitrary<fc.Arbitrary<OpShape>> {
  switch (model) {
    case 'register':
      return fc.constant(fc.oneof(read(readOutput), write()));
    case 'cas-register':
      return fc.constant(fc.oneof({ weight: 2, arbitrary: read(readOutput) }, { weight: 2, arbitrary: write() }, { weight: 1, arbitrary: cas() }));
    case 'etcd':
      return fc.constant(
        fc.oneof({ weight: 2, arbitrary: read(fc.constantFrom<Value>(null, 1, 2)) }, { weight: 2, arbitrary: write() }, { weight: 1, arbitrary: cas() }),
      );
    case 'kv':
      return fc.integer({ min: 1, max: KEYS.length }).map(kvOp);
    case 'mutex':
      return fc.constant(fc.constantFrom<OpShape>({ f: 'acquire', input: null, output: null }, { f: 'release', input: null, output: null }));
  }
}

/** Random small histories for `model`. */
export function historyArbitrary(model: ModelName): fc.Arbitrary<History> {
  return fc
    .tuple(opShapes(model), fc.integer({ min: 1, max: MAX_WORKERS }))
    .chain(([shape, workers]) =>
      fc.record({
        workers: fc.constant(workers),
        ops: fc.array(fc.record({ worker: fc.nat(workers - 1), shape, outcome }), { minLength: 2, maxLength: MAX_OPS, size: 'max' }),
        picks: fc.array(fc.nat(MAX_WORKERS - 1), { minLength: MAX_EVENTS, maxLength: MAX_EVENTS }),
        timing,
        nemesisAt: fc.oneof({ weight: 4, arbitrary: fc.constant<number[]>([]) }, { weight: 1, arbitrary: fc.array(fc.nat(MAX_EVENTS), { maxLength: 2 }) }),
      }),
    )
    .map(buildFromPlan);
}

/** Each worker's events in its own order; a worker moves to a fresh process after info or no completion. */
function workerEvents(plan: Plan): EventSpec[][] {
  const queues: EventSpec[][] = Array.from({ length: plan.workers }, () => []);
  const generation = new Array<number>(plan.workers).fill(0);
  for (const { worker, shape, outcome } of plan.ops) {
    const process = worker + MAX_WORKERS * generation[worker]!;
    const q = queues[worker]!;
    q.push({ process, type: 'invoke', f: shape.f, value: shape.input });
    if (outcome === 'ok') q.push({ process, type: 'ok', f: shape.f, value: shape.output });
    if (outcome === 'fail' || outcome === 'info') q.push({ process, type: outcome, f: shape.f, value: shape.input });
    if (outcome === 'info' || outcome === 'none') generation[worker]!++;
  }
  return queues;
}

function buildFromPlan(plan: Plan): History {
  const queues = workerEvents(plan);
  const events: EventSpec[] = [];
  let pick = 0;
  while (queues.some((q) => q.length > 0)) {
    // The next picked worker with events left (round-robin after the picks run out).
    let w = (plan.picks[pick++] ?? pick) % plan.workers;
    while (queues[w]!.length === 0) w = (w + 1) % plan.workers;
    events.push(queues[w]!.shift()!);
  }
  for (const at of plan.nemesisAt) {
    events.splice(Math.min(at, events.length), 0, { process: 'nemesis', type: 'info', f: 'start-partition', value: 'majority' });
  }
  let now = 0;
  return buildHistory(events).map((e: Op, i): Op => ({
    ...e,
    time: plan.timing.kind === 'monotonic' ? (now += plan.timing.deltas[i] ?? 1) : (plan.timing.times[i] ?? i),
  }));
}

/**
 * Histories linearizable by construction, of up to `maxOps` operations (far
 * beyond what the brute force can check): a simulated single-copy system
 * applies each op at one instant inside its interval (or never, for an op that
 * then ends info, fail where the model allows, or never ends), and every ok
 * returns what the system answered at that instant. check() must call each
 * of them valid.
 */
export function linearizableHistoryArbitrary(model: ModelName, maxOps: number, opts: { uniqueWrites?: boolean } = {}): fc.Arbitrary<History> {
  return fc
    .tuple(opShapes(model), fc.integer({ min: 1, max: MAX_WORKERS }))
    .chain(([shape, workers]) =>
      fc.record({
        workers: fc.constant(workers),
        shapes: fc.array(shape, { minLength: maxOps >> 1, maxLength: maxOps }),
        choices: fc.array(fc.nat(99), { minLength: 6 * maxOps, maxLength: 6 * maxOps }),
        deltas: fc.array(fc.constantFrom(0, 1), { minLength: 4 * maxOps, maxLength: 4 * maxOps }),
      }),
    )
    .map((plan) => simulate(model, opts.uniqueWrites === true ? { ...plan, shapes: plan.shapes.map(uniqueWrite) } : plan));
}

/** A kv write whose value no other write of the history has (as Jepsen's and Porcupine's generators write them). */
function uniqueWrite(shape: OpShape, i: number): OpShape {
  if (shape.f !== 'put' && shape.f !== 'append') return shape;
  const [k] = shape.input as [string, string];
  return { ...shape, input: [k, `<${i}>`], output: [k, `<${i}>`] };
}

type SystemState = Value | boolean | Readonly<Record<string, string>>;

/** What a correct system does with an op in `state`: the answer, the next state, and whether the op failed (a cas whose compare failed, a mutex op refused). */
function apply(model: ModelName, state: SystemState, op: OpShape): { output: Value; next: SystemState; failed: boolean } {
  const done = (output: Value, next: SystemState) => ({ output, next, failed: false });
  const refused = { output: op.input, next: state, failed: true };
  if (model === 'mutex') {
    const held = state === true;
    return op.f === 'acquire' ? (held ? refused : done(null, true)) : held ? done(null, false) : refused;
  }
  if (model === 'kv') {
    const kv = state as Readonly<Record<string, string>>;
    const [k, v] = op.input as [string, string | null];
    if (op.f === 'get') return done([k, kv[k] ?? ''], kv);
    return done(op.input, { ...kv, [k]: (op.f === 'append' ? (kv[k] ?? '') : '') + String(v) });
  }
  const value = state as Value;
  if (op.f === 'read') return done(value, value);
  if (op.f === 'write') return done(op.input, op.input);
  const [from, to] = op.input as [Value, Value];
  return JSON.stringify(from) === JSON.stringify(value) ? done(op.input, to) : refused;
}

interface InFlight {
  process: number;
  op: OpShape;
  applied?: { output: Value; failed: boolean };
}

function simulate(model: ModelName, plan: { workers: number; shapes: OpShape[]; choices: number[]; deltas: number[] }): History {
  let state: SystemState = model === 'mutex' ? false : model === 'kv' ? {} : null;
  const events: EventSpec[] = [];
  const flight: (InFlight | undefined)[] = new Array(plan.workers).fill(undefined);
  const generation = new Array<number>(plan.workers).fill(0);
  let next = 0;
  let c = 0;
  const choose = (n: number): number => (plan.choices[c++] ?? 0) % n;
  const retire = (w: number, f: InFlight, type: 'ok' | 'fail' | 'info' | undefined, value: Value): void => {
    if (type !== undefined) events.push({ process: f.process, type, f: f.op.f, value });
    if (type !== 'ok' && type !== 'fail') generation[w]!++;
    flight[w] = undefined;
  };
  for (let round = 0; round < plan.choices.length && (next < plan.shapes.length || flight.some(Boolean)); round++) {
    const w = choose(plan.workers);
    const f = flight[w];
    if (f === undefined) {
      if (next >= plan.shapes.length) continue;
      const op = plan.shapes[next++]!;
      flight[w] = { process: w + MAX_WORKERS * generation[w]!, op };
      events.push({ process: flight[w]!.process, type: 'invoke', f: op.f, value: op.input });
    } else if (f.applied === undefined) {
      const roll = choose(10);
      if (roll < 7) {
        const r = apply(model, state, f.op);
        state = r.next;
        f.applied = { output: r.output, failed: r.failed };
      } else {
        // Never took effect: info, never completed, or fail where fail means "did not happen" (not etcd's cas, an observation).
        const failOk = model !== 'etcd' || f.op.f !== 'cas';
        retire(w, f, roll === 7 ? 'info' : roll === 8 && failOk ? 'fail' : undefined, f.op.input);
      }
    } else {
      // Took effect: ok with the answer (fail if refused), or lost (info, or etcd's indeterminate fail of a read or write).
      const roll = choose(10);
      const lost = model === 'etcd' && f.op.f !== 'cas' && !f.applied.failed ? 'fail' : 'info';
      retire(w, f, roll < 8 ? (f.applied.failed ? 'fail' : 'ok') : lost, roll < 8 ? f.applied.output : f.op.input);
    }
  }
  let now = 0;
  return buildHistory(events).map((e, i): Op => ({ ...e, time: (now += plan.deltas[i] ?? 1) }));
}
