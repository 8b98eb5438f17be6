/**
 * bench:hunt's shrinks (bench/hunt-shrink.ts): the facts of a shrink read from what the shrink itself prints
 * (a shrink over the simulation, its lines and shrink.json as the CLI writes them), a plan not shrunk, and the
 * table per target with the line over all shrinks against the bar.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isReproduced, isSmall, shrinkFacts, shrinkTable, type ShrinkFacts } from '../../bench/hunt-shrink.js';
import { BENCH_TARGETS, benchTarget, huntArgv } from '../../bench/hunt-targets.js';
import { runShrink } from '../../src/shrink/run-shrink.js';
import { faultEvents } from '../../core/generator/fault-events.js';
import { simHuntDeps } from '../hunt/sim-hunt-deps.js';
import { madeTempDir } from '../support/temp-dirs.js';

const SAMPLE = new URL('../fixtures/runs/sample-run', import.meta.url).pathname;
const readJson = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8')) as unknown;

const facts = (over: Partial<ShrinkFacts>): ShrinkFacts => ({
  by: 'command',
  line: 'shrunk to 1 fault event, 2 clients, 5 s; reproduced 4/4 (95% CI 51–100%)',
  faultEvents: 1,
  clients: 2,
  reproduced: { fails: 4, of: 4 },
  elapsedMs: 120_000,
  shrinkJson: 's.json',
  ...over,
});

describe("bench:hunt's shrinks", () => {
  it('reads a shrink as the shrink prints it: its size, its rate, its own time from shrink.json', async () => {
    const shrinkDir = madeTempDir('fc-bench-shrink-');
    const r = await runShrink({ runDir: SAMPLE, runs: 3, minFails: 2, maxCandidates: 25, shrinkDir }, simHuntDeps());
    // What `fencecheck shrink` writes on stdout: the report's lines, then the shrink.json it wrote.
    const stdout = `${r.lines.join('\n')}\nshrink: ${join(shrinkDir, 'shrink.json')}\n`;
    const f = shrinkFacts('command', stdout, readJson, 1);
    expect(f.faultEvents).toBe(faultEvents(r.options.script!));
    expect(f.clients).toBe(r.options.clients);
    expect(f.reproduced).toEqual(r.reproduced);
    expect(f.line).toMatch(/^shrunk to \d+ fault events?, \d+ clients?, \d+ s; reproduced \d+\/\d+$/);
    expect(r.lines[0]!.startsWith(f.line)).toBe(true);
    // The shrink's own clock (the simulation's virtual time here), not the command's wall time.
    const json = readJson(join(shrinkDir, 'shrink.json')) as { elapsedMs: number };
    expect(json.elapsedMs).toBeGreaterThan(0);
    expect(f.elapsedMs).toBe(json.elapsedMs);
    expect(f.shrinkJson).toBe(join(shrinkDir, 'shrink.json'));
  });

  it('reads a plan not shrunk, timed by the command when no shrink.json says', () => {
    const f = shrinkFacts('hunt', 'VIOLATION: …\nnot shrunk: the original plan reproduced 0/15 (95% CI 0–20%): too rare\nHint: …\n', readJson, 42_000);
    expect(f).toMatchObject({ by: 'hunt', faultEvents: null, clients: null, reproduced: null, elapsedMs: 42_000, shrinkJson: null });
    expect(f.line).toMatch(/^not shrunk: the original plan reproduced 0\/15/);
    expect(isSmall(f) || isReproduced(f)).toBe(false);
    expect(shrinkFacts('command', 'Error: boom\n', readJson, null).line).toBe('no shrink line: Error: boom');
  });

  it('tabulates each target and says how many shrinks meet the bar', () => {
    const rows = [
      { target: 'zk-careful', seed: 2, shrink: facts({ elapsedMs: 60_000 }) },
      { target: 'zk-careful', seed: 1, shrink: facts({ elapsedMs: 180_000, faultEvents: 3, clients: 3, reproduced: { fails: 3, of: 5 } }) },
      {
        target: 'redlock-clock',
        seed: 1,
        shrink: facts({ by: 'hunt', faultEvents: null, clients: null, reproduced: null, elapsedMs: null, line: 'not shrunk: …' }),
      },
      { target: 'cas-unique', seed: 1 },
    ];
    const table = shrinkTable(rows, BENCH_TARGETS)!;
    expect(table).toContain('| zk-careful | 2/2 | 2m00s (1m00s–3m00s) | 1: 3 ev, 3 cl; 2: 1 ev, 2 cl | 3/5, 4/4 |');
    expect(table).toContain('| redlock-clock | 0/1 | — | 1: not shrunk | — |');
    expect(table).not.toContain('cas-unique');
    expect(table).toContain(
      '3 shrinks: median 2m00s, slowest 3m00s; 1 of 3 at most 2 fault events and 2 clients; 1 of 3 reproduced at least 4 times (1 shrunk by their hunt',
    );
    expect(shrinkTable([{ target: 'zk-careful', seed: 1 }], BENCH_TARGETS)).toBeNull();
  });

  it("lets the hunt shrink its own find only when asked (--shrink): the hunts' times are the same either way", () => {
    expect(huntArgv(benchTarget('zk-careful'), 1, '5m', 'out')).toContain('--no-shrink');
    expect(huntArgv(benchTarget('zk-careful'), 1, '5m', 'out', { shrink: true })).not.toContain('--no-shrink');
  });
});
