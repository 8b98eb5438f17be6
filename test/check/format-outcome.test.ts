/** The outcome line of `fencecheck run`, `check RUN_DIR` and `report RUN_DIR`: the word, why untested, the share of fault windows that struck. */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../core/checkers/lock/evidence.js';
import { formatOutcome, formatStoredOutcome } from '../../src/check/format-outcome.js';

const evidence = (over: Partial<Evidence['faults']>, doubleHolds = 0, refusals = 0): Evidence => ({
  faults: { planned: 4, applied: 4, skipped: [], failed: [], ...over },
  protection: { doubleHolds, refusals },
});

describe('formatOutcome', () => {
  it('says why a valid run is untested and how many windows struck, with the first skip and failure', () => {
    const e = evidence({
      applied: 2,
      skipped: [
        { fault: 'client-pause', why: 'no client to pause' },
        { fault: 'client-pause', why: 'no client to pause' },
      ],
      failed: [],
    });
    expect(formatOutcome('untested', true, e, 'lock-counter')).toBe(
      'outcome: UNTESTED (the lock never failed: no double hold, no refusal); 2 of 4 fault windows struck (50%) [2 skipped: no client to pause, …]; 0 double hold(s), 0 refusal(s)',
    );
    expect(formatOutcome('untested', true, evidence({ planned: 0, applied: 0 }), 'lock-counter')).toBe(
      'outcome: UNTESTED (no fault applied); no fault windows planned; 0 double hold(s), 0 refusal(s)',
    );
  });

  it('prints safe and unsafe with what tested the protection', () => {
    expect(formatOutcome('safe', true, evidence({ failed: [{ fault: 'clock', error: 'clock file not writable' }] }, 3, 2), 'fenced-write')).toBe(
      'outcome: safe; 4 of 4 fault windows struck (100%) [1 failed: clock file not writable]; 3 double hold(s), 2 refusal(s); ' +
        'no violation in 1 run, 5 dangerous moments tested: a failure that shows in at least 95 % of runs would have been found with 95 % confidence',
    );
    expect(formatOutcome('unsafe', false, evidence({}, 1, 0), 'lock-counter')).toBe(
      'outcome: UNSAFE; 4 of 4 fault windows struck (100%); 1 double hold(s), 0 refusal(s)',
    );
  });

  it('ends the line with the client crashes, when there were any', () => {
    const first = { client: 'client2-8', exit: 'signal SIGABRT', stderrTail: [] };
    expect(formatOutcome('unknown', 'unknown', { ...evidence({}, 0, 2), clients: { crashes: 3, first } }, 'lock-counter')).toBe(
      'outcome: unknown; 4 of 4 fault windows struck (100%); 0 double hold(s), 2 refusal(s); 3 client crash(es) (first: client2-8, signal SIGABRT)',
    );
    expect(formatOutcome('safe', true, { ...evidence({}, 0, 2), clients: { crashes: 0, first: null } }, 'lock-counter')).toBe(
      'outcome: safe; 4 of 4 fault windows struck (100%); 0 double hold(s), 2 refusal(s); no violation in 1 run, 2 dangerous moments tested: a failure that shows in at least 95 % of runs would have been found with 95 % confidence',
    );
  });

  it('reads a results.json from before evidence as untested, never safe', () => {
    expect(formatStoredOutcome({ valid: true, checkers: [] }, 'lock-counter')).toBe(
      'outcome: UNTESTED (results.json records no evidence that the faults struck (re-check with `fencecheck check RUN_DIR`))',
    );
    expect(formatStoredOutcome({ valid: false, checkers: [] }, 'lock-counter')).toBe('outcome: UNSAFE');
  });
});
