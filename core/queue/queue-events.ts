/**
 * The lines a queue program prints on stdout (docs/queues.md, "The queue
 * protocol"), read strictly (pure): the ready line, a producer's answers, a
 * worker's events. A line that does not fit is a violation the runner
 * records (the run is then unknown at best), never a guess.
 */
import { parseStrictJson } from '../history/strict-json.js';
import type { Value } from '../history/op.js';

export type QueueReady = { library: string; attempt: string | null };
export type ProducerAnswer = { id: number; type: 'ok' | 'fail' | 'info'; error?: string };
export type JobRef = { job: number; attempt: number };
export type WorkerEvent =
  | ({ event: 'take' } & JobRef)
  | ({ event: 'effect'; phase: 'invoke' | 'ok' | 'rejected' | 'fail' | 'info'; error?: string } & JobRef)
  | ({ event: 'complete'; phase: 'invoke' | 'ok' | 'fail' | 'info'; error?: string } & JobRef);

export class QueueLineError extends Error {}

const PHASES = {
  effect: ['invoke', 'ok', 'rejected', 'fail', 'info'],
  complete: ['invoke', 'ok', 'fail', 'info'],
} as const;

function objectOf(line: string): Record<string, Value> {
  let v: Value;
  try {
    v = parseStrictJson(line) as Value;
  } catch (err) {
    throw new QueueLineError(`not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new QueueLineError('not a JSON object');
  return v as Record<string, Value>;
}

const isCount = (v: Value | undefined): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const errorOf = (v: Value | undefined): { error?: string } => (typeof v === 'string' ? { error: v } : {});

export function readReady(line: string): QueueReady {
  const o = objectOf(line);
  if (o['ready'] !== true || o['protocol'] !== 1) throw new QueueLineError('expected the ready line {"ready": true, "protocol": 1, ...} first');
  if (typeof o['library'] !== 'string') throw new QueueLineError('the ready line names no "library"');
  const attempt = o['attempt'];
  if (attempt !== null && typeof attempt !== 'string') throw new QueueLineError('the ready line\'s "attempt" is neither a field name nor null');
  return { library: o['library'], attempt };
}

export function readProducerAnswer(line: string): ProducerAnswer {
  const o = objectOf(line);
  const type = o['type'];
  if (!isCount(o['id'])) throw new QueueLineError('an answer without its request\'s "id"');
  if (type !== 'ok' && type !== 'fail' && type !== 'info') throw new QueueLineError(`an answer's "type" must be ok, fail or info, got ${JSON.stringify(type)}`);
  return { id: o['id'], type, ...errorOf(o['error']) };
}

export function readWorkerEvent(line: string): WorkerEvent {
  const o = objectOf(line);
  const job = o['job'];
  const attempt = o['attempt'];
  if (!isCount(job)) throw new QueueLineError(`an event's "job" must be the job's id (a non-negative integer), got ${JSON.stringify(job ?? null)}`);
  if (!isCount(attempt)) throw new QueueLineError(`an event's "attempt" must be a non-negative integer, got ${JSON.stringify(attempt ?? null)}`);
  const event = o['event'];
  if (event === 'take') return { event, job, attempt };
  if (event !== 'effect' && event !== 'complete') throw new QueueLineError(`unknown event ${JSON.stringify(event ?? null)} (take, effect, complete)`);
  const phase = o['phase'];
  const phases: readonly string[] = PHASES[event];
  if (typeof phase !== 'string' || !phases.includes(phase))
    throw new QueueLineError(`${event}'s "phase" must be one of ${phases.join(', ')}, got ${JSON.stringify(phase ?? null)}`);
  return { event, phase, job, attempt, ...errorOf(o['error']) } as WorkerEvent;
}
