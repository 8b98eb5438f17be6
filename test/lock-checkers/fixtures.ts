/**
 * Whole lock runs with known verdicts, one per scenario the lock checkers
 * exist for: the manifest behind registry.test.ts. Add every bug a checker
 * finds here, with the verdicts it should have had.
 */
import type { History } from '../../core/history/op.js';
import type { LockContext, Validity } from '../../core/checkers/lock/verdict.js';
import { call, context, lockHistory, nemesis, section } from './lock-history.js';

export interface Fixture {
  name: string;
  context: LockContext;
  history: History;
  /** Each checker's verdict, by name, in the registry's order. */
  expected: Record<string, Validity>;
  merged: Validity;
}

const write = (p: number, token: number, atMs: number, type: 'ok' | 'fail' | 'info' = 'ok') =>
  call(p, 'write', atMs, atMs + 2, type, { value: `p${p}-${token}`, token, outcome: type === 'ok' ? 'accepted' : type === 'fail' ? 'rejected' : 'unknown' });

/** p0 holds token 1 and is paused from 5 ms to 3000 ms; its lease expires and p1 gets token 2 at 1500 ms. */
const pausedHolder = (lateWrite: 'ok' | 'fail') =>
  lockHistory(
    section(0, 1, 1, 3100, write(0, 1, 3000, lateWrite)),
    nemesis(5, 'pause', { target: 'c0' }),
    nemesis(3000, 'resume', { target: 'c0' }),
    section(1, 2, 1500, 1700, write(1, 2, 1600)),
    call(9, 'final-read', 5000, 5001, 'ok', { result: lateWrite === 'ok' ? 'p0-1' : 'p1-2' }),
  );

export const FIXTURES: Fixture[] = [
  {
    name: 'a correct fenced run',
    context: context(),
    history: lockHistory(section(0, 1, 10, 30, write(0, 1, 12)), section(1, 2, 40, 60, write(1, 2, 42)), section(0, 3, 70, 90, write(0, 3, 72))),
    expected: {
      'stale-writes': true,
      'interleaved-sections': true,
      'grant-tokens': true,
      'mutual-exclusion': true,
      'access-stats': true,
      'section-cost': true,
    },
    merged: true,
  },
  {
    name: 'a paused holder writes after the next holder acquired, unfenced',
    context: context({ resource: 'none', backend: 'redis' }),
    history: pausedHolder('ok'),
    expected: {
      'stale-writes': false,
      'interleaved-sections': true,
      'grant-tokens': true,
      'mutual-exclusion': false,
      'access-stats': true,
      'section-cost': true,
    },
    merged: false,
  },
  {
    // The data is safe, but p0 still believed it held the lock while p1 did: the lease is no mutex.
    // The run's verdict is about the data, so it is valid; mutual-exclusion is reported, not deciding.
    name: 'a paused holder writes after the next holder acquired, and the fence rejects it',
    context: context(),
    history: pausedHolder('fail'),
    expected: {
      'stale-writes': true,
      'interleaved-sections': true,
      'grant-tokens': true,
      'mutual-exclusion': false,
      'access-stats': true,
      'section-cost': true,
    },
    merged: true,
  },
  {
    name: 'two holders read the same counter and both increments are acknowledged',
    context: context({ workload: 'lock-counter', resource: 'none', backend: 'redis' }),
    history: lockHistory(
      section(0, 1, 1, 70, call(0, 'read', 2, 3, 'ok', { result: 0, token: 1 }), call(0, 'write', 60, 61, 'ok', { value: 1, token: 1 })),
      section(1, 2, 40, 50, call(1, 'read', 41, 42, 'ok', { result: 0, token: 2 }), call(1, 'write', 43, 44, 'ok', { value: 1, token: 2 })),
      call(9, 'final-read', 100, 101, 'ok', { result: 1 }),
    ),
    expected: {
      'lost-updates': false,
      'stale-writes': false,
      'interleaved-sections': false,
      'grant-tokens': true,
      'mutual-exclusion': false,
      'access-stats': true,
      'section-cost': true,
    },
    merged: false,
  },
  {
    name: 'a fence that rejected every write',
    context: context(),
    history: lockHistory(section(0, 1, 10, 30, write(0, 1, 12, 'fail')), section(1, 2, 40, 60, write(1, 2, 42, 'fail'))),
    expected: {
      'stale-writes': true,
      'interleaved-sections': true,
      'grant-tokens': true,
      'mutual-exclusion': true,
      'access-stats': true,
      'section-cost': 'unknown',
    },
    merged: true,
  },
  {
    name: 'a mutex run with a timed-out acquire',
    context: context({ workload: 'mutex', resource: 'none', backend: 'zookeeper' }),
    history: lockHistory(section(0, 1, 10, 30), call(1, 'acquire', 20, 35, 'info'), section(2, 2, 40, 60)),
    expected: { 'mutual-exclusion': true, 'mutex-linearizable': true, 'access-stats': true, 'section-cost': true },
    merged: true,
  },
];
