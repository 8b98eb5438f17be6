/**
 * What one client worker will do, decided before the run: an endless, lazy
 * sequence of critical sections, each with the think time before its
 * acquire, the time to hold the lock, and the value to write.
 *
 * Pure and seeded: client i's plan depends only on (seed, i, options).
 * Each client has its own forked stream, and think and hold times have
 * their own streams within it, so changing the hold time leaves the arrival
 * times alone. Sections arrive as a Poisson process: think times are
 * exponential with mean 1000/rate ms. Times are rounded to the microsecond
 * so that a plan prints, and compares in tests, exactly.
 */
import type { LockWorkload } from '../workloads/workload.js';
import { UsageError } from '../errors.js';
import { Prng } from '../random/prng.js';
import { expectNonNegative, expectPositive } from './expect-option.js';
import { workloadOf } from '../workloads/registry.js';

/** A fixed hold in ms, or uniform in [min, max] ms. */
export type HoldTime = number | { min: number; max: number };

export interface ClientPlanOptions {
  workload: LockWorkload;
  /** Sections per second per client, on average. */
  rate: number;
  hold: HoldTime;
}

export interface PlannedSection {
  client: number;
  /** 0, 1, 2, ...: the section's number for this client. */
  seq: number;
  /** Wait this long after the previous section ended, then acquire. */
  thinkMs: number;
  /** Keep the lock this long (lock-counter: between the read and the write). */
  holdMs: number;
  /**
   * fenced-write: the unique value `p{client}-{seq}`; lock-counter and mutex:
   * null (the counter's value is the read plus one, known only at run time).
   */
  value: string | null;
}

/** Client `client`'s plan. Options are checked here, at the call, not at the first section. */
export function clientPlan(seed: number, client: number, options: ClientPlanOptions): Generator<PlannedSection, never> {
  if (!Number.isSafeInteger(client) || client < 0) throw new RangeError(`Expected \`client\` to be a non-negative integer, got \`${client}\``);
  const meanThinkMs = 1000 / expectPositive('rate', options.rate);
  const holdMs = holdSampler(options.hold);
  const stream = new Prng(seed).fork(`client-${client}`);
  return sections(client, options.workload, meanThinkMs, holdMs, stream.fork('think'), stream.fork('hold'));
}

function* sections(
  client: number,
  workload: LockWorkload,
  meanThinkMs: number,
  holdMs: (prng: Prng) => number,
  think: Prng,
  hold: Prng,
): Generator<PlannedSection, never> {
  for (let seq = 0; ; seq++) {
    yield {
      client,
      seq,
      thinkMs: micros(think.exponential(meanThinkMs)),
      holdMs: micros(holdMs(hold)),
      value: workloadOf(workload).writeValue(client, seq),
    };
  }
}

/** The first `n` sections of a plan. */
export function planPrefix(plan: Iterator<PlannedSection, never>, n: number): PlannedSection[] {
  return Array.from({ length: n }, () => plan.next().value);
}

function holdSampler(h: HoldTime): (prng: Prng) => number {
  if (typeof h === 'number') {
    const fixed = expectNonNegative('hold', h);
    return () => fixed;
  }
  const min = expectNonNegative('hold.min', h.min);
  const max = expectNonNegative('hold.max', h.max);
  if (max < min) throw new UsageError(`Expected \`hold.max\` to be at least \`hold.min\` (${min}), got \`${max}\``);
  return (prng) => min + prng.float() * (max - min);
}

function micros(msValue: number): number {
  return Math.round(msValue * 1000) / 1000;
}
