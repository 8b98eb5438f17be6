/** plan.json: written one short value per line, read back with the first bad field named (254); JSON-equal to JSON.stringify's text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatJson } from '../../core/run-files/format-json.js';
import { parsePlanJson, planText } from '../../core/run-files/plan-json.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { planRun } from '../../core/plan/run-plan.js';
import { testSeed } from '../support/seed.js';

const options: RunOptions = {
  ...DEFAULTS,
  backend: 'etcd',
  resource: 'fence-claim',
  workload: 'lock-counter',
  nemesis: ['partition'],
  timeLimitS: 12,
  clients: 2,
};
const plan = planRun(options);

function refusal(edit: (p: Record<string, any>) => void): string {
  const p = JSON.parse(planText(plan)) as Record<string, any>;
  edit(p);
  try {
    parsePlanJson(JSON.stringify(p), 'plan.json');
  } catch (err) {
    expect(err).toBeInstanceOf(RunFileError);
    expect((err as RunFileError).exitCode).toBe(254);
    return (err as RunFileError).message;
  }
  throw new Error('expected a RunFileError');
}

describe('plan.json', () => {
  it('writes each section on its own line, and reads back the plan', () => {
    const text = planText(plan);
    expect(text).toMatch(/\n {8}\{"client":0,"seq":0,"thinkMs":[0-9.]+,"holdMs":200,"value":null\},\n/);
    const sectionLines = text.split('\n').filter((line) => line.trim().startsWith('{"client"'));
    expect(sectionLines).toHaveLength(plan.workers.reduce((n, w) => n + w.sections.length, 0));
    expect(parsePlanJson(text, 'plan.json')).toEqual(plan);
  });

  it.each([
    [
      'a missing option',
      (p: Record<string, any>) => delete p['options'].clients,
      'plan.json: expected `options.clients` to be set (a plan holds every option), found nothing (the field is missing)',
    ],
    ['an option no run takes', (p: Record<string, any>) => (p['options'].nemesis = ['clock']), 'plan.json: `options`: Cannot run this combination'],
    [
      'an unknown phase',
      (p: Record<string, any>) => (p['phases'][1].name = 'nap'),
      'plan.json: expected `phases[1].name` to be one of main, heal, recover, final-reads, found "nap"',
    ],
    [
      'a main phase without an end',
      (p: Record<string, any>) => delete p['phases'][0].endMs,
      'plan.json: expected `phases[0].endMs` to be a number of ms, at least startMs',
    ],
    [
      'a section out of order',
      (p: Record<string, any>) => (p['workers'][1].sections[2].seq = 7),
      'plan.json: expected `workers[1].sections[2].seq` to be 2, found 7',
    ],
    [
      'a negative hold',
      (p: Record<string, any>) => (p['workers'][0].sections[0].holdMs = -1),
      'plan.json: expected `workers[0].sections[0].holdMs` to be a number of ms >= 0, found -1',
    ],
    ['a worker too few', (p: Record<string, any>) => p['workers'].pop(), 'plan.json: expected `workers` to be a list of 2 worker plans (options.clients)'],
    ['a bad window', (p: Record<string, any>) => (p['windows'][0].fault = 'meteor'), 'plan.json: expected `windows[0].fault` to be one of'],
  ])('refuses %s, naming the field', (_, edit, wanted) => {
    expect(refusal(edit)).toContain(wanted);
  });
});

describe('formatJson', () => {
  it('reads back as JSON.stringify writes, for random JSON values', () => {
    const seed = testSeed('formatJson', 'test/store/plan-json.test.ts');
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(formatJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { seed, numRuns: 300 },
    );
  });

  it('keeps short values on one line and breaks long ones', () => {
    expect(formatJson({ a: [1, 2], b: { c: 'd' } })).toBe('{"a":[1,2],"b":{"c":"d"}}');
    const long = { xs: Array.from({ length: 30 }, (_, i) => ({ i })) };
    expect(formatJson(long).split('\n')).toHaveLength(34);
  });
});
