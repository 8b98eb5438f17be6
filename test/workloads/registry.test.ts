/**
 * The workload registry: every workload names checkers that exist, its facts
 * agree with one another, and the CLI's list and the facts others ask come
 * from it.
 */
import { describe, expect, it } from 'vitest';
import { WORKLOADS, workloadOf } from '../../core/workloads/registry.js';
import { checkersFor } from '../../core/checkers/lock/registry.js';
import { notApplicableWithoutLock, isCounterWorkload } from '../../core/vocabulary.js';

describe('the workloads', () => {
  it('each names checkers that exist, its data checker first and the counts last', () => {
    for (const w of WORKLOADS) {
      const names = checkersFor(w).map((c) => c.name);
      expect(names, w).toEqual([...workloadOf(w).checkers]);
      expect(names.slice(-2), w).toEqual(['access-stats', 'section-cost']);
    }
    expect(WORKLOADS).toEqual(['mutex', 'lock-counter', 'fenced-write', 'jobs']);
  });

  it('facts that go together: a counter touches the resource; the lock is the subject only where nothing else is judged', () => {
    for (const w of WORKLOADS.map(workloadOf)) {
      if (w.counter) expect(w.accessesResource, w.name).toBe(true);
      expect(w.lockIsTheSubject, w.name).toBe(!w.accessesResource);
      expect(isCounterWorkload(w.name)).toBe(w.counter);
      // Only fenced-write fixes what a section writes in the plan.
      expect(w.writeValue(2, 5)).toBe(w.name === 'fenced-write' ? 'p2-5' : null);
    }
  });

  it('says why one cannot run without a lock, naming the ones that can', () => {
    expect(notApplicableWithoutLock('none', 'mutex')).toBe(
      'the mutex workload judges the lock itself, and --backend none has no lock (use lock-counter or jobs)',
    );
    expect(notApplicableWithoutLock('none', 'fenced-write')).toBe(
      "the fenced-write workload judges writes against the lock's hand-overs, and --backend none has no lock (use lock-counter or jobs)",
    );
    expect(notApplicableWithoutLock('none', 'jobs')).toBeUndefined();
    expect(notApplicableWithoutLock('redis', 'mutex')).toBeUndefined();
  });
});
