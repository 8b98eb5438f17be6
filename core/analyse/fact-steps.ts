/**
 * What the declared-facts rules share (declared-facts.ts): the facts of a
 * test.json that choose the checkers, the contradiction a rule reports, and
 * a history's client ops as steps (an invocation with its completion), so
 * each rule can point at the op that carries its evidence: a write's value
 * on its invocation, a read's version or a refusal's code on its completion.
 */
import type { ClientTokenKind } from '../client-protocol.js';
import type { History, Op, Value } from '../history/op.js';
import type { LockBackend, LockWorkload, ResourceMode } from '../vocabulary.js';

/** The facts of test.json that decide which checkers judge a history, and how (run-results.ts). */
export interface DeclaredFacts {
  workload: LockWorkload;
  resource: ResourceMode;
  backend: LockBackend;
  /** The token kind a foreign client announced (test.json's `clientToken`); undefined: the backend's. */
  clientToken?: ClientTokenKind | undefined;
  /** A foreign client ran (test.json's `client`): only such a run records `clientToken`. */
  foreignClient: boolean;
}

export type DeclaredFact = 'workload' | 'resource' | 'backend' | 'clientToken';

/** A declared fact the history (or test.json itself) contradicts, in words. */
export interface FactContradiction {
  fact: DeclaredFact;
  /** The fact as test.json says it: `workload fenced-write`. */
  declared: string;
  /** The op whose record contradicts it, or null when test.json contradicts itself. */
  op: Op | null;
  /** What that op is: `p1's write of 1`. */
  found: string;
  /** Why that cannot be under the declared fact. */
  why: string;
}

/** One client op: its invocation and its completion (none while pending). */
export interface Step {
  invoke: Op;
  process: number;
  done: Op | undefined;
}

/** The client ops in invocation order, each with its completion; the nemesis is skipped (validateHistory has paired them already). */
export function stepsOf(history: History): Step[] {
  const steps: Step[] = [];
  const open = new Map<number, Step>();
  for (const op of history) {
    if (op.process === 'nemesis') continue;
    if (op.type === 'invoke') {
      const step: Step = { invoke: op, process: op.process, done: undefined };
      steps.push(step);
      open.set(op.process, step);
      continue;
    }
    const step = open.get(op.process);
    if (step === undefined) continue;
    open.delete(op.process);
    step.done = op;
  }
  return steps;
}

/** The resource accesses of a section (the final read is no section's). */
export const SECTION_ACCESSES: readonly string[] = ['read', 'write', 'mark'];

/** `p1's write`: a step as the contradictions name it. */
export function who(step: Step): string {
  return `p${step.process}'s ${step.invoke.f}`;
}

/** A value as a message quotes it, cut at 40 characters. */
export function quote(v: Value | undefined): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The token a step ran under: its completion's, else its invocation's. */
export function tokenOf(step: Step): number | string | undefined {
  for (const op of [step.done, step.invoke]) {
    const t = op?.['token'];
    if (typeof t === 'number' || typeof t === 'string') return t;
  }
  return undefined;
}

/** A number field of the completion (`fence`, `version`), when it holds one. */
export function numberField(op: Op | undefined, field: string): number | undefined {
  const v = op?.[field];
  return typeof v === 'number' ? v : undefined;
}
