/**
 * Nemesis columns aimed at lock events (`client-pause@holder-read`): parsed
 * and refused as columns are, not applicable where the event cannot happen,
 * and each run of such a column carries its windows as a script, so it
 * replays as a plain `fencecheck run --script`.
 */
import { describe, expect, it } from 'vitest';
import { matrixCells, nemesisAims, parseNemesisLabel, runOptionsFor } from '../../src/compare/compare-spec.js';
import { UsageError } from '../../core/errors.js';
import { parseScript } from '../../core/generator/parse-script.js';
import { planRun } from '../../core/plan/run-plan.js';
import { replayArgs } from '../../core/plan/run-options.js';
import { spec } from './fixture-runs.js';

describe('aimed nemesis columns', () => {
  it('fault@event: the faults as before, and the event each is aimed at', () => {
    expect(parseNemesisLabel('client-pause@holder-read')).toEqual(['client-pause']);
    expect(nemesisAims('client-pause@holder-read+kill')).toEqual({ 'client-pause': 'holder-read' });
    expect(nemesisAims('partition+kill')).toEqual({});
    expect(() => parseNemesisLabel('client-pause@soon')).toThrow(UsageError);
    expect(() => parseNemesisLabel('client-pause@grant+client-pause')).toThrow(/at most once/);
    expect(() => parseNemesisLabel('nap@grant')).toThrow(/faults among/);
  });

  it('a column aimed at the mark is not applicable where nobody marks', () => {
    const cells = matrixCells(['redis'], ['none', 'cas-unique'], ['client-pause@mark']);
    expect(cells.map((c) => [c.id, c.notApplicable === null ? null : c.notApplicable.slice(0, 40)])).toEqual([
      ['redis/none/client-pause@mark', 'the mark event happens only in the cas-u'],
      ['redis/cas-unique/client-pause@mark', null],
    ]);
  });

  it("a run of an aimed column carries the seeded windows, aimed, as its script; the replay's --script plans the same run", () => {
    const s = spec({
      backends: ['etcd'],
      resources: ['fence-claim'],
      nemeses: ['client-pause@holder-read'],
      run: { ...spec().run, timeLimitS: 5, ttlMs: 1000, durationMs: 4000, intervalMs: 200 },
    });
    const cell = matrixCells(['etcd'], s.resources, s.nemeses)[0]!;
    const o = runOptionsFor(s, cell, 3, '/r');
    expect(o.nemesis).toEqual(['client-pause']);
    expect(o.script).toEqual([{ at: 200, until: 4200, fault: 'client-pause', target: { kind: 'holder' }, trigger: { on: 'holder-read', withinMs: 800 } }]);
    const args = replayArgs(o);
    const script = args[args.indexOf('--script') + 1]!;
    expect(parseScript(script)).toEqual(o.script);
    expect(planRun(o).windows).toEqual(o.script);
    // An unaimed column's runs stay seeded (no script), as before.
    expect(runOptionsFor(s, { ...cell, nemesis: 'client-pause' }, 3, '/r').script).toBeUndefined();
  });
});
