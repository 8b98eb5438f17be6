/** The --expect format: parsing with named errors, wildcards, the later entry deciding, skipped cells, typos. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizeCell, type CellSummary } from '../../src/compare/cell-summary.js';
import { matrixCells } from '../../src/compare/compare-spec.js';
import { evaluateExpectations } from '../../src/compare/evaluate-expectations.js';
import { matchesCell, parseExpectations, wildcardMatch } from '../../src/compare/expectations.js';
import { testSeed } from '../support/seed.js';
import { summarizeResults, type RunSummary } from '../../src/compare/run-summary.js';
import type { StoredResults } from '../../core/run-files/results-json.js';
import { resultsJson, type FixtureOutcome } from './fixture-runs.js';

const parse = (value: unknown) => parseExpectations(JSON.stringify(value), 'expect.json');

/** Cells of redis, redlock x none, fence x client-pause, clock; each with the outcomes given by id (else one valid run). */
function cells(outcomes: Record<string, FixtureOutcome[]> = {}, planned = [1]): CellSummary[] {
  return matrixCells(['redis', 'redlock'], ['none', 'fence'], ['client-pause', 'clock']).map((c) => {
    const runs = (outcomes[c.id] ?? planned.map((): FixtureOutcome => ({ valid: true }))).map((o, i): RunSummary => ({
      id: `${c.id}#${i + 1}`,
      cellId: c.id,
      seed: i + 1,
      dir: null,
      log: null,
      hasReport: false,
      replay: null,
      startedAt: null,
      error: null,
      ...summarizeResults(resultsJson(o)),
    }));
    return summarizeCell(c, c.notApplicable ? [] : planned, c.notApplicable ? [] : runs);
  });
}

describe('parsing expectations', () => {
  it('reads patterns, lists and options', () => {
    const [a, b] = parse([
      { resource: 'fence*', expect: 'safe', useful: true, note: 'fences work' },
      { backend: ['redis', 'etcd'], nemesis: 'client-pause', expect: 'unsafe', kinds: ['lost-update'] },
    ]);
    expect(a).toMatchObject({ index: 1, backend: null, resource: ['fence*'], expect: 'safe', useful: true, note: 'fences work' });
    expect(b).toMatchObject({ index: 2, backend: ['redis', 'etcd'], nemesis: ['client-pause'], kinds: ['lost-update'] });
  });

  it.each([
    [{ resource: 'none' }, 'Expected `expect` to be one of safe, unsafe, any in entry 1 of expect.json, got `undefined`'],
    [
      { resourse: 'none', expect: 'safe' },
      'Expected only the fields backend, resource, nemesis, expect, useful, kinds, note in entry 1 of expect.json, got `"resourse"`',
    ],
    [{ backend: 3, expect: 'safe' }, 'Expected `backend` to be a pattern or a list of patterns in entry 1 of expect.json, got `3`'],
    [{ expect: 'unsafe', useful: true }, 'Expected `useful` only with "expect": "safe"'],
    [{ expect: 'safe', kinds: ['lost-update'] }, 'Expected `kinds` only with "expect": "unsafe"'],
  ])('names the entry and the field: %j', (entry, message) => {
    expect(() => parse([entry])).toThrow(message);
  });

  it('refuses what is not a JSON array', () => {
    expect(() => parseExpectations('{', 'e.json')).toThrow(/Expected `--expect` e\.json to be JSON/);
    expect(() => parseExpectations('{}', 'e.json')).toThrow('Expected `--expect` e.json to be a JSON array of expectations, got an object');
  });

  it('matches with * wildcards and nothing else special', () => {
    expect(wildcardMatch('redlock*', 'redlock-npm')).toBe(true);
    expect(wildcardMatch('fence', 'fence-claim')).toBe(false);
    expect(wildcardMatch('a.c', 'abc')).toBe(false);
    expect(wildcardMatch('*a*a', 'aa')).toBe(true);
    expect(wildcardMatch('a*a', 'a')).toBe(false);
    const [e] = parse([{ backend: 'redlock*', nemesis: ['kill', 'clock'], expect: 'any' }]);
    expect(matchesCell(e!, { backend: 'redlock-npm', resource: 'none', nemesis: 'clock' })).toBe(true);
    expect(matchesCell(e!, { backend: 'redis', resource: 'none', nemesis: 'clock' })).toBe(false);
  });
});

describe('evaluating expectations', () => {
  it('is met when the cells show what is expected, skipping not-applicable cells', () => {
    const got = evaluateExpectations(parse([{ resource: 'fence', expect: 'safe' }]), cells());
    expect(got.met).toBe(true);
    // redis/fence x 2 nemeses decided; redlock/fence is not applicable (no token) and is left out.
    expect(got.results[0]).toMatchObject({ matched: 4, decided: 2, unmet: [], matchedNoCell: false });
    expect(got.byCell.has('redlock/fence/clock')).toBe(false);
  });

  it('lists each unmet cell with what it showed', () => {
    const got = evaluateExpectations(
      parse([{ resource: 'none', expect: 'unsafe' }]),
      cells({ 'redis/none/client-pause': [{ valid: false, anomalies: { 'lost-update': 2 } }, { valid: true }] }),
    );
    expect(got.met).toBe(false);
    expect(got.results[0]!.unmet).toEqual([
      { cellId: 'redis/none/clock', reason: '1 run valid (2 of 2 fault windows struck; 1 double hold, 0 refusals): no anomaly found' },
      { cellId: 'redlock/none/client-pause', reason: '1 run valid (2 of 2 fault windows struck; 1 double hold, 0 refusals): no anomaly found' },
      { cellId: 'redlock/none/clock', reason: '1 run valid (2 of 2 fault windows struck; 1 double hold, 0 refusals): no anomaly found' },
    ]);
    expect(got.byCell.get('redis/none/client-pause')).toEqual({ expectation: 1, expect: 'unsafe', met: true, reason: '1 of 2 runs invalid (lost-update 2)' });
  });

  it('lets a later entry override an earlier one', () => {
    const got = evaluateExpectations(
      parse([{ expect: 'safe' }, { resource: 'none', nemesis: 'client-pause', expect: 'unsafe' }]),
      cells({
        'redis/none/client-pause': [{ valid: false, anomalies: { 'lost-update': 1 } }],
        'redlock/none/client-pause': [{ valid: false, anomalies: { 'lost-update': 1 } }],
      }),
    );
    expect(got.met).toBe(true);
    expect(got.results.map((r) => r.decided)).toEqual([4, 2]);
  });

  it('requires the kinds named and, with useful, a fence that let writes through', () => {
    const c = cells({
      'redis/none/clock': [{ valid: false, anomalies: { 'stale-write': 1 } }],
      'redis/fence/clock': [{ valid: true, writes: { accepted: 0, rejected: 12 } }],
    });
    const got = evaluateExpectations(
      parse([
        { backend: 'redis', resource: 'none', nemesis: 'clock', expect: 'unsafe', kinds: ['lost-update', 'stale-write'] },
        { backend: 'redis', resource: 'fence', expect: 'safe', useful: true },
      ]),
      c,
    );
    expect(got.results[0]!.unmet[0]!.reason).toBe('1 of 1 run invalid (stale-write 1), but no lost-update');
    expect(got.results[1]!.unmet).toEqual([
      {
        cellId: 'redis/fence/clock',
        reason: '1 run valid (2 of 2 fault windows struck; 1 double hold, 12 refusals), but the fence rejected every write in 1 of 1 runs (safe but useless)',
      },
    ]);
  });

  it('fails safe on unknown and missing runs', () => {
    const got = evaluateExpectations(
      parse([{ backend: 'redis', resource: 'none', expect: 'safe' }]),
      cells({ 'redis/none/clock': [{ valid: 'unknown' }], 'redis/none/client-pause': [{ valid: true }] }, [1, 2]),
    );
    expect(got.results[0]!.unmet).toEqual([
      { cellId: 'redis/none/client-pause', reason: '1 of 2 runs missing (seed 2)' },
      { cellId: 'redis/none/clock', reason: '1 of 1 run unknown or failed' },
    ]);
  });

  it('calls safe unmet on untested cells and names each of them', () => {
    const untested: FixtureOutcome = { valid: true, evidence: { planned: 0, applied: 0 } };
    const got = evaluateExpectations(
      parse([{ backend: 'redis', expect: 'safe' }]),
      cells({ 'redis/none/clock': [untested], 'redis/fence/clock': [{ valid: true, evidence: { doubleHolds: 0, refusals: 0 } }] }),
    );
    expect(got.met).toBe(false);
    expect(got.results[0]!.unmet).toEqual([
      { cellId: 'redis/none/clock', reason: 'untested: 1 run valid, none showing the danger (no fault applied)' },
      { cellId: 'redis/fence/clock', reason: 'untested: 1 run valid, none showing the danger (the lock never failed: no double hold, no refusal)' },
    ]);
  });

  it('calls an entry that names no cell unmet: a typo must not pass', () => {
    const got = evaluateExpectations(parse([{ backend: 'zookeeper', expect: 'safe' }]), cells());
    expect(got.met).toBe(false);
    expect(got.results[0]!.matchedNoCell).toBe(true);
  });

  it('leaves cells of other shards out without failing', () => {
    const got = evaluateExpectations(parse([{ backend: 'redis', expect: 'unsafe' }]), cells({}, []));
    expect(got.met).toBe(true);
    expect(got.results[0]).toMatchObject({ matched: 4, decided: 0, matchedNoCell: false });
  });
});

describe('wildcard matching', () => {
  it('takes linear time on 50,000 stars (a regular expression backtracks for minutes)', () => {
    const pattern = `${'*'.repeat(50_000)}x`;
    expect(wildcardMatch(pattern, 'redis')).toBe(false);
    expect(wildcardMatch(pattern, 'redis-x')).toBe(true);
    expect(parse([{ backend: pattern, expect: 'safe' }])[0]!.backend).toEqual([pattern]);
  });

  it('agrees with the regular-expression reading on small patterns (property)', () => {
    const seed = testSeed('wildcard vs regexp', 'test/compare/expectations.test.ts');
    const small = (chars: string[]) => fc.string({ unit: fc.constantFrom(...chars), maxLength: 8 });
    fc.assert(
      fc.property(small(['a', 'b', '*', '.']), small(['a', 'b', '.']), (pattern, text) => {
        const body = pattern
          .split('*')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*');
        expect(wildcardMatch(pattern, text)).toBe(new RegExp(`^${body}$`).test(text));
      }),
      { seed, numRuns: 2000 },
    );
  });
});

describe('expectations over --lock-clients rows', () => {
  it('a backend pattern names a row: `redis` the built-in client only, `*@redis` the other clients on redis', () => {
    const [builtin, others, all] = parse([
      { backend: 'redis', expect: 'unsafe' },
      { backend: '*@redis', expect: 'unsafe' },
      { backend: '*redis', expect: 'unsafe' },
    ]);
    const [own] = matrixCells(['redis'], ['none'], ['client-pause']);
    const [library] = matrixCells(
      [{ label: 'redis-semaphore@redis', backend: 'redis', client: 'redis-semaphore', token: 'unique' }],
      ['none'],
      ['client-pause'],
    );
    expect([matchesCell(builtin!, own!), matchesCell(builtin!, library!)]).toEqual([true, false]);
    expect([matchesCell(others!, own!), matchesCell(others!, library!)]).toEqual([false, true]);
    expect([matchesCell(all!, own!), matchesCell(all!, library!)]).toEqual([true, true]);
  });
});
