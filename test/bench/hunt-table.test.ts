/**
 * bench:hunt's rows and table: a row read from a hunt.json (the first unsafe
 * try's number, its end time and its arms), and per target the median and
 * range over seeds, the last row of a target and seed winning; a protected
 * target shows its tries and bound, or the violation a hunt found where none was expected.
 */
import { describe, expect, it } from 'vitest';
import { huntRow, huntTable } from '../../bench/hunt-table.js';
import { BENCH_TARGETS, huntArgv, benchTarget } from '../../bench/hunt-targets.js';

const doc = (
  outcomes: string[],
  over: { windows?: { fault: string; trigger?: { on: string } }[]; nearMiss?: object; target?: object; faults?: string[]; want?: string } = {},
) => ({
  ...(over.target ? { target: over.target } : {}),
  ...(over.want ? { want: over.want } : {}),
  ...(over.faults ? { faults: over.faults } : {}),
  tries: outcomes.map((outcome, i) => ({
    outcome,
    endedAtMs: (i + 1) * 20_000,
    runDir: `r${i}`,
    windows: over.windows ?? [{ fault: 'client-pause', trigger: { on: 'grant' } }, { fault: 'kill' }],
    nearMiss: over.nearMiss ?? { doubleHolds: 2 },
  })),
});

describe('bench:hunt table', () => {
  it("names the run of the find the hunt reported (hunt.json's find: a plan index; tries listed as they ended), for its shrink", () => {
    const d = doc(['safe', 'unsafe', 'unsafe']);
    // Plans 0, 2 and 1 ended in that order; the hunt's answer names plan 1 (the third to end), not the first violation.
    const tries = d.tries.map((t, i) => ({ ...t, index: [0, 2, 1][i] }));
    const r = huntRow('cas-unique', 1, '5m', 1, { ...d, tries, find: 1 }, 'h.json', 1);
    expect(r.found).toMatchObject({ tryNumber: 2, runDir: 'r1', reportedRunDir: 'r2' });
  });

  it('reads runs-to-detection and time-to-detection from a hunt.json', () => {
    const r = huntRow('cas-unique', 3, '10m', 1, doc(['safe', 'untested', 'unsafe', 'unsafe']), 'h.json', 99_000);
    expect(r.found).toEqual({
      tryNumber: 3,
      afterMs: 60_000,
      arms: 'client-pause@grant + kill@time',
      runDir: 'r2',
      miss: { doubleHolds: 2 },
      reportedRunDir: 'r2',
    });
    expect([r.tries, r.tested]).toEqual([4, 1]);
    expect(huntRow('cas-unique', 4, '10m', 0, doc(['safe', 'safe']), 'h.json', 1).found).toBeNull();
  });

  it('gives per target the median and range over seeds, and the bound or a false alarm for protected ones', () => {
    const rows = [
      huntRow('cas-unique', 1, '10m', 1, doc(['unsafe']), 'a', 1),
      huntRow('cas-unique', 2, '10m', 1, doc(['safe', 'safe', 'unsafe']), 'b', 1),
      huntRow('cas-unique', 3, '10m', 0, doc(['safe']), 'c', 1),
      huntRow('cas-unique', 3, '10m', 1, doc(['safe', 'unsafe']), 'c2', 1),
      huntRow('etcd-fence-claim', 1, '3m', 0, doc(['safe', 'safe', 'untested']), 'd', 1),
      huntRow('zk-fence-claim', 1, '3m', 1, doc(['unsafe']), 'e', 1),
    ];
    const table = huntTable(rows, BENCH_TARGETS).split('\n');
    expect(table.find((l) => l.startsWith('| cas-unique '))).toBe(
      '| cas-unique | violation | 1–3 | 3/3 | every find | 2 (1–3) | 40s (20s–1m00s) | — | client-pause@grant + kill@time | 10m |',
    );
    expect(table.find((l) => l.startsWith('| etcd-fence-claim '))).toBe(
      '| etcd-fence-claim | none | 1–1 | 0/1 | — | — | — | — | 3 tries, 2 tested: ≥ 78 % ruled out (95 %) | 3m |',
    );
    expect(table.find((l) => l.startsWith('| zk-fence-claim '))).toMatch(/VIOLATION where none was expected: client-pause@grant/);
    expect(table.some((l) => l.startsWith('| redlock-delay '))).toBe(false);
  });

  it("counts the finds that show the target's own failure, and leaves out rows of an earlier definition of a target", () => {
    const delay = { windows: [{ fault: 'delay', trigger: { on: 'holder-read' } }] };
    const rows = [
      huntRow('redlock-delay', 1, '10m', 1, doc(['unsafe'], { ...delay, nearMiss: { expiredGrants: 2 } }), 'a', 1),
      // A late write on the unfenced resource: a violation, but not the library's expired grant.
      huntRow('redlock-delay', 2, '10m', 1, doc(['unsafe'], { ...delay, nearMiss: { expiredGrants: 0, doubleHolds: 3 } }), 'b', 1),
      // sentinel-fence hunted the write-only fence once; the target now claims its token.
      huntRow('sentinel-fence', 1, '10m', 1, doc(['unsafe'], { target: { backend: 'redis-sentinel', resource: 'fence' } }), 'c', 1),
      huntRow('sentinel-fence', 2, '10m', 1, doc(['safe', 'unsafe'], { target: { backend: 'redis-sentinel', resource: 'fence-claim' } }), 'd', 1),
      // The protected Redis was hunted once without persistence; the target now fsyncs every write.
      huntRow('redis-fence-claim', 1, '5m', 1, doc(['unsafe'], { target: { backend: 'redis', resource: 'fence-claim' } }), 'e', 1),
      huntRow(
        'redis-fence-claim',
        2,
        '5m',
        0,
        doc(['safe'], { target: { backend: 'redis', resource: 'fence-claim', redisPersistence: 'aof-always' } }),
        'f',
        1,
      ),
    ];
    const table = huntTable(rows, BENCH_TARGETS).split('\n');
    expect(table.find((l) => l.startsWith('| redlock-delay '))).toContain('| 2/2 | 1 of 2 finds (a grant with no validity left) |');
    expect(table.find((l) => l.startsWith('| sentinel-fence '))).toContain('| 2–2 | 1/1 | every find | 2 |');
    expect(table.find((l) => l.startsWith('| redis-fence-claim '))).toContain('| 2–2 | 0/1 |');
  });

  it('a hunt asked for a sign: only rows that asked for it count, and what else broke the data is said', () => {
    const clock = { target: { backend: 'redlock', resource: 'none' }, faults: ['clock', 'partition'] };
    const rows = [
      // Before the target asked for the sign: a late write found first, left out now.
      huntRow('redlock-clock', 1, '10m', 1, doc(['unsafe'], clock), 'a', 1),
      huntRow('redlock-clock', 1, '10m', 1, doc(['other-violation', 'safe', 'other-violation'], { ...clock, want: 'valid-double-hold' }), 'b', 1),
      huntRow(
        'redlock-clock',
        2,
        '10m',
        1,
        doc(['other-violation', 'unsafe'], {
          ...clock,
          want: 'valid-double-hold',
          windows: [{ fault: 'clock', trigger: { on: 'held' } }],
          nearMiss: { validDoubleHolds: 1 },
        }),
        'c',
        1,
      ),
    ];
    const line = huntTable(rows, BENCH_TARGETS)
      .split('\n')
      .find((l) => l.startsWith('| redlock-clock '))!;
    expect(line).toContain("| 1–2 | 1/2 | 1 of 1 finds (two holders both within their grants' validity, with a clock jump in the try) | 2 |");
    expect(line).toContain('clock@held; 3 tries over 2 seeds broke the data without a valid-double-hold |');
    expect(huntArgv(benchTarget('redlock-clock'), 1, '10m', 'out').join(' ')).toContain('--faults clock,partition --want valid-double-hold');
  });

  it("says how reproducible each seed's find was (its most reproducible violation's re-runs)", () => {
    const confirmed = (rates: ({ fails: number; of: number } | undefined)[]) => ({
      tries: rates.map((reproduced, i) => ({
        outcome: 'unsafe',
        endedAtMs: (i + 1) * 20_000,
        runDir: `r${i}`,
        windows: [{ fault: 'client-pause', trigger: { on: 'grant' } }],
        nearMiss: { doubleHolds: 1 },
        ...(reproduced ? { reproduced } : {}),
      })),
    });
    const rows = [
      huntRow(
        'cas-unique',
        1,
        '10m',
        1,
        confirmed([
          { fails: 1, of: 3 },
          { fails: 4, of: 4 },
        ]),
        'a',
        1,
      ),
      huntRow('cas-unique', 2, '10m', 1, confirmed([{ fails: 2, of: 4 }]), 'b', 1),
    ];
    expect(rows[0]!.found!.reproduced).toEqual({ fails: 4, of: 4 });
    expect(
      huntTable(rows, BENCH_TARGETS)
        .split('\n')
        .find((l) => l.startsWith('| cas-unique ')),
    ).toContain('| 1 of 2 (4/4, 2/4) |');
  });

  it('points the hunt at a target as a user would: lock, client, resource, fault family', () => {
    expect(huntArgv(benchTarget('zk-careful'), 2, '10m', 'out')).toEqual([
      'hunt',
      '--backend',
      'zookeeper',
      '--resource',
      'none',
      '--check-hold',
      '--budget',
      '10m',
      '--seed',
      '2',
      '--results',
      'out',
      '--no-shrink',
    ]);
    expect(huntArgv(benchTarget('redlock-delay'), 1, '10m', 'out')).toContain('delay,partition,loss');
    // The protected Redis fsyncs every write: its INCR counter survives a kill (the volatile one is the finding).
    expect(huntArgv(benchTarget('redis-fence-claim'), 1, '10m', 'out').join(' ')).toContain('--redis-persistence aof-always');
    expect(huntArgv(benchTarget('redis-fence-claim-volatile'), 1, '10m', 'out')).not.toContain('--redis-persistence');
    expect(() => benchTarget('nope')).toThrow(/unknown --target nope/);
  });
});
