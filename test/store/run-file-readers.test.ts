import { FAULT_KINDS } from '../../core/generator/faults/registry.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResultsJson } from '../../core/run-files/results-json.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { parseTestJson } from '../../core/run-files/test-json.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';

const dir = madeTempDir('fencecheck-readers-');

const IDENTITY = { name: 't', backend: 'etcd', resource: 'fence', workload: 'lock-counter', seed: 3 };
const RESULTS = { valid: true, checkers: [{ checker: 'lost-updates', valid: true }] };

function message(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(RunFileError);
    expect((err as RunFileError).exitCode).toBe(254);
    return (err as RunFileError).message;
  }
  throw new Error('expected a RunFileError');
}

describe('readTestJson', () => {
  it('a test.json of {} names the first missing field', () => {
    writeFileSync(join(dir, 'test.json'), '{}\n');
    expect(message(() => readTestJson(dir))).toBe(
      `${join(dir, 'test.json')}: expected \`name\` to be the name of the test, found nothing (the field is missing)`,
    );
  });

  it('a missing test.json is null', () => {
    expect(readTestJson(join(dir, 'nowhere'))).toBeNull();
  });

  it.each([
    [
      { ...IDENTITY, backend: 'mysql' },
      'expected `backend` to be one of redis, redlock, redlock-npm, etcd, zookeeper, redis-sentinel, pg-advisory, pg-advisory-pooled, memcached, none, found "mysql"',
    ],
    [{ ...IDENTITY, workload: undefined }, 'expected `workload` to be one of mutex, lock-counter, fenced-write, jobs, found nothing (the field is missing)'],
    [{ ...IDENTITY, seed: 1.5 }, 'expected `seed` to be an integer, found 1.5'],
    [{ ...IDENTITY, nemesis: ['client-pause', 'meteor'] }, `expected \`nemesis\` to be a list of ${FAULT_KINDS.join(', ')}, found ["client-pause","meteor"]`],
    [{ ...IDENTITY, callTimeoutMs: '300' }, 'expected `callTimeoutMs` to be a positive number, found "300"'],
    [{ ...IDENTITY, recoverMs: -1 }, 'expected `recoverMs` to be a number >= 0, found -1'],
    [{ ...IDENTITY, checkHold: 'yes' }, 'expected `checkHold` to be true or false, found "yes"'],
    [{ ...IDENTITY, interrupted: { signal: 'SIGINT' } }, 'expected `interrupted` to be { signal, at } strings, found {"signal":"SIGINT"}'],
    [[IDENTITY], 'expected `(top level)` to be an object, found [{"name":"t","backend":"etcd","resource":"fence","workloa...'],
  ])('names the bad field: %j', (json, detail) => {
    expect(message(() => parseTestJson(JSON.stringify(json), 'test.json'))).toBe(`test.json: ${detail}`);
  });

  it('reads the cluster record of a warm run, and a file written before it (no record)', () => {
    const cluster = { fresh: false, reusedAfterRuns: 3, startMs: 420, resetMs: 180, cleanCheck: { ok: true, problems: [], ms: 140 }, logsDir: '/r/logs' };
    expect(parseTestJson(JSON.stringify({ ...IDENTITY, cluster }), 'test.json')).toEqual({ ...IDENTITY, cluster });
    const replaced = {
      ...cluster,
      fresh: true,
      reusedAfterRuns: 0,
      cleanCheck: { ok: false, problems: ['redis1: 1 keys left (fencecheck-lock)'], ms: 90 },
      freshBecause: 'the clean check failed',
    };
    expect(parseTestJson(JSON.stringify({ ...IDENTITY, cluster: replaced }), 'test.json')).toEqual({ ...IDENTITY, cluster: replaced });
    expect(parseTestJson(JSON.stringify(IDENTITY), 'test.json')).toEqual(IDENTITY);
    expect(message(() => parseTestJson(JSON.stringify({ ...IDENTITY, cluster: { ...cluster, reusedAfterRuns: -1 } }), 'test.json'))).toMatch(
      /^test\.json: expected `cluster` to be \{ fresh, reusedAfterRuns/,
    );
    expect(message(() => parseTestJson(JSON.stringify({ ...IDENTITY, cluster: { ...cluster, cleanCheck: { ok: 'yes' } } }), 'test.json'))).toMatch(
      /^test\.json: expected `cluster`/,
    );
    // A run whose clients were spares says how many.
    const spared = { ...cluster, clientsFromSpares: 3 };
    expect(parseTestJson(JSON.stringify({ ...IDENTITY, cluster: spared }), 'test.json')).toEqual({ ...IDENTITY, cluster: spared });
    expect(message(() => parseTestJson(JSON.stringify({ ...IDENTITY, cluster: { ...cluster, clientsFromSpares: 'all' } }), 'test.json'))).toMatch(
      /^test\.json: expected `cluster`/,
    );
  });

  it('keeps fields it does not know, for the report', () => {
    expect(parseTestJson(JSON.stringify({ ...IDENTITY, nemeses: ['client-pause'] }), 'test.json')).toEqual({ ...IDENTITY, nemeses: ['client-pause'] });
  });

  it('a syntax error names the file', () => {
    expect(message(() => parseTestJson('{"name": ', 'test.json'))).toMatch(/^test\.json: expected JSON, found a syntax error/);
  });
});

describe('readResultsJson', () => {
  it('a missing results.json is null (the run did not finish)', () => {
    expect(readResultsJson(join(dir, 'nowhere'))).toBeNull();
  });

  it('reads a file from before evidence was recorded, without inventing the missing fields', () => {
    writeFileSync(join(dir, 'results.json'), JSON.stringify(RESULTS));
    expect(readResultsJson(dir)).toEqual(RESULTS);
  });

  it.each([
    [{ checkers: [] }, 'expected `valid` to be true, false or "unknown", found nothing (the field is missing)'],
    [{ valid: 'yes', checkers: [] }, 'expected `valid` to be true, false or "unknown", found "yes"'],
    [{ ...RESULTS, checkers: [{ checker: 'x', valid: true, anomalyCount: -1 }] }, 'expected `checkers[0].anomalyCount` to be a count, found -1'],
    [
      { ...RESULTS, checkers: [{ checker: 'x', valid: true, anomalies: [{ kind: 'double-hold', window: { start: 1 } }] }] },
      'expected `checkers[0].anomalies[0].window` to be { start, end } in nanoseconds, found {"start":1}',
    ],
    [{ ...RESULTS, deciding: 'lost-updates' }, 'expected `deciding` to be an array of checker names, found "lost-updates"'],
    [{ ...RESULTS, durationMs: '12' }, 'expected `durationMs` to be a number of ms or null, found "12"'],
    [{ ...RESULTS, outcome: 'fine' }, 'expected `outcome` to be one of safe, unsafe, unknown, untested, found "fine"'],
    [
      { ...RESULTS, evidence: { faults: { planned: 1, applied: 1, skipped: [], failed: [] } } },
      'expected `evidence.protection` to be an object, found nothing (the field is missing)',
    ],
    [
      {
        ...RESULTS,
        evidence: { faults: { planned: 1, applied: 1, skipped: [{ fault: 'client-pause' }], failed: [] }, protection: { doubleHolds: 0, refusals: 0 } },
      },
      'expected `evidence.faults.skipped[0]` to be { fault, why } strings, found {"fault":"client-pause"}',
    ],
    [
      { ...RESULTS, evidence: { faults: { planned: 1, applied: 1, skipped: [], failed: [] }, protection: { doubleHolds: 0.5, refusals: 0 } } },
      'expected `evidence.protection.doubleHolds` to be a count, found 0.5',
    ],
    [
      {
        ...RESULTS,
        evidence: {
          faults: { planned: 1, applied: 1, skipped: [], failed: [] },
          protection: { doubleHolds: 0, refusals: 0 },
          clients: { crashes: -1, first: null },
        },
      },
      'expected `evidence.clients` to be { crashes, first } with a count of crashes, found {"crashes":-1,"first":null}',
    ],
    [
      {
        ...RESULTS,
        evidence: {
          faults: { planned: 1, applied: 1, skipped: [], failed: [] },
          protection: { doubleHolds: 0, refusals: 0 },
          clients: { crashes: 1, first: { client: 'client1-1' } },
        },
      },
      'expected `evidence.clients.first` to be null or { client, exit, stderrTail }, found {"client":"client1-1"}',
    ],
  ])('names the bad field: %j', (json, detail) => {
    expect(message(() => parseResultsJson(JSON.stringify(json), 'results.json'))).toBe(`results.json: ${detail}`);
  });
});
