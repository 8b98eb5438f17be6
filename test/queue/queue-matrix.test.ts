/**
 * The queue matrix (core/queue/queue-matrix.ts) and docs/queues.md's generated table
 * (src/queue/render-queues-md.ts): every library in every mode under a stall and without a
 * remedy under a kill and a server kill (no persistence, the AOF, Sentinels), a mode a library cannot serve shown n/a with its reason (never run), a
 * cell's options the run command's own (its replay command reproduces it), and the table
 * written between its markers without touching the prose around it.
 */
import { describe, expect, it } from 'vitest';
import { cellOptions, librariesNamed, MATRIX_SETTINGS, queueMatrixCells } from '../../core/queue/queue-matrix.js';
import { QUEUE_LIBRARIES, QUEUE_MODES, modeNotServed } from '../../core/queue/queue-libraries.js';
import { queueReplayCommand, validateQueueOptions } from '../../core/queue/queue-options.js';
import { GENERATED_BEGIN, GENERATED_END, renderQueueMatrix, replaceGenerated, type QueueCellRecord } from '../../src/queue/render-queues-md.js';
import { UsageError } from '../../core/errors.js';
import { claimCellOptions, claimCells, QUEUE_CLAIMS } from '../../core/queue/queue-claims.js';
import { CLAIM_MARKERS, renderQueueClaims, type ClaimRecord } from '../../src/queue/render-queue-claims-md.js';
import { meanInterval, perThousand, wilsonInterval } from '../../core/checkers/lock/rate-interval.js';
import { formatPercent, ruledOutRate } from '../../core/checkers/lock/weight.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../../dist/src/cli/queues-main.js', import.meta.url));
const queues = (args: string[]) => spawnSync(process.execPath, [ENTRY, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('the queue matrix', () => {
  it('has every library in every mode under a stall, without a remedy under a kill and its server killed, n/a exactly where the library has no attempt number', () => {
    const cells = queueMatrixCells();
    const serverKills = (lib: (typeof QUEUE_LIBRARIES)[number]) => 1 + (lib.server === 'redis' ? 1 : 0) + (lib.sentinel === true ? 1 : 0);
    expect(cells).toHaveLength(QUEUE_LIBRARIES.reduce((n, lib) => n + QUEUE_MODES.length + 1 + serverKills(lib), 0));
    expect(new Set(cells.map((c) => c.id)).size).toBe(cells.length);
    for (const lib of QUEUE_LIBRARIES) {
      const mine = cells.filter((c) => c.library === lib);
      expect(mine.filter((c) => c.fault === 'client-pause').map((c) => c.mode)).toEqual([...QUEUE_MODES]);
      expect(mine.filter((c) => c.fault === 'client-kill').map((c) => c.mode)).toEqual(['none']);
      const kills = mine.filter((c) => c.fault === 'server-kill');
      expect(kills.map((c) => c.mode).every((m) => m === 'none')).toBe(true);
      expect(kills.map((c) => c.variant ?? 'plain')).toEqual([
        'plain',
        ...(lib.server === 'redis' ? ['aof'] : []),
        ...(lib.sentinel === true ? ['sentinel'] : []),
      ]);
      for (const c of mine) expect(c.notServed).toBe(modeNotServed(lib, c.mode));
    }
    expect(cells.filter((c) => c.notServed !== undefined).map((c) => c.id)).toEqual(['bee-queue.client-pause.attempt-fence', 'rq.client-pause.attempt-fence']);
  });

  it("runs a server kill with a backlog: Redis without persistence, with its AOF, behind Sentinels (one failover), each library's own PostgreSQL", () => {
    const byId = new Map(queueMatrixCells().map((c) => [c.id, cellOptions(c, { ...MATRIX_SETTINGS }, '/tmp/r')]));
    expect(byId.get('bullmq.server-kill.none')).toMatchObject({ backend: 'redis', nemesis: ['server-kill'], jobMs: 600 });
    expect(byId.get('bullmq.server-kill.none')!.redisPersistence).toBeUndefined();
    expect(byId.get('bullmq.server-kill-aof.none')).toMatchObject({ backend: 'redis', redisPersistence: 'aof-everysec', jobMs: 600 });
    expect(byId.get('bullmq.server-kill-sentinel.none')).toMatchObject({ backend: 'redis-sentinel', jobMs: 600, intervalMs: 10_000, durationMs: 10_000 });
    expect(byId.get('pg-boss.server-kill.none')).toMatchObject({ backend: 'postgres', jobMs: 600 });
    expect(byId.has('pg-boss.server-kill-aof.none')).toBe(false);
    expect(byId.has('bee-queue.server-kill-sentinel.none')).toBe(false);
    // The stall's cells keep the run command's defaults.
    expect(byId.get('bullmq.client-pause.none')).toMatchObject({ backend: 'redis', jobMs: MATRIX_SETTINGS.jobMs, intervalMs: MATRIX_SETTINGS.intervalMs });
    // One failover: the second window would open past the time limit.
    const sentinel = byId.get('bullmq.server-kill-sentinel.none')!;
    expect(2 * sentinel.intervalMs + sentinel.durationMs).toBeGreaterThanOrEqual(sentinel.timeLimitS * 1000);
    const labels = new Map(queueMatrixCells().map((c) => [c.id, c.serverLabel]));
    expect(labels.get('bullmq.server-kill.none')).toBe('redis (no persistence)');
    expect(labels.get('bullmq.server-kill-aof.none')).toBe('redis (AOF, every second)');
    expect(labels.get('rq.server-kill-sentinel.none')).toBe('redis behind Sentinels');
    expect(labels.get('bullmq.client-pause.none')).toBe('redis');
  });

  it("gives each runnable cell options the run command accepts, replayed by the command's own defaults", () => {
    for (const c of queueMatrixCells().filter((c) => c.notServed === undefined)) {
      const o = cellOptions(c, { ...MATRIX_SETTINGS }, '/tmp/r');
      expect(() => validateQueueOptions(o)).not.toThrow();
      const replay = queueReplayCommand(o);
      expect(replay).toContain(`--client ${c.library.name} `);
      expect(replay).toContain(`--resource ${c.mode} `);
      expect(replay).toContain(`--nemesis ${c.fault} `);
      expect(replay).toContain(`--backend ${c.backend} `);
    }
  });

  it('names libraries from --only in the matrix order and reports the unknown ones', () => {
    expect(librariesNamed('rq, bullmq').libraries.map((l) => l.name)).toEqual(['bullmq', 'rq']);
    expect(librariesNamed('bullmq,sidekiq').unknown).toEqual(['sidekiq']);
    expect(librariesNamed(undefined).libraries).toHaveLength(QUEUE_LIBRARIES.length);
  });
});

describe("docs/queues.md's generated table", () => {
  const facts = { machine: 'a test machine', date: '2026-12-06', settings: 'seed 1', wall: '1 min' };
  const measured: QueueCellRecord = {
    id: 'bullmq.client-pause.none',
    library: 'bullmq',
    server: 'redis',
    fault: 'client-pause',
    mode: 'none',
    outcome: 'unsafe',
    exitCode: 1,
    counts: { done: 297, duplicated: 3, lost: 0, wasted: 0, missingLock: 3, redelivered: 3 },
    anomalies: ["job 44's effect landed 2 times (attempt 1 by w1 | w2, attempt 2 by w4)"],
    replay: 'fencecheck run --workload queue --client bullmq',
  };

  it('writes each record as a row: the verdict with its exit code, duplicated per 1,000 with the Wilson interval, the counts, the first anomaly escaped', () => {
    const md = renderQueueMatrix(
      [
        measured,
        { id: 'rq.client-pause.attempt-fence', library: 'rq', server: 'redis', fault: 'client-pause', mode: 'attempt-fence', notServed: 'no attempt number' },
        { id: 'rq.client-kill.none', library: 'rq', server: 'redis', fault: 'client-kill', mode: 'none', error: 'not run' },
      ],
      facts,
    );
    expect(md.startsWith(GENERATED_BEGIN)).toBe(true);
    expect(md.endsWith(GENERATED_END)).toBe(true);
    expect(md).toContain(
      "| `bullmq` | redis | worker stalled (SIGSTOP) past its lock | none | **unsafe** (exit 1) | 3 of 297 (10.1, 3.4–29.3) | 0 | 0 | 3 | 3 | job 44's effect landed 2 times (attempt 1 by w1 \\| w2, attempt 2 by w4) |",
    );
    expect(md).toContain('| `rq` | redis | worker stalled (SIGSTOP) past its lock | attempt-fence | n/a (254: no attempt number) |');
    expect(md).toContain('| `rq` | redis | worker killed (kill -9) mid-job | none | not measured (not run) |');
    expect(md).toContain('# bullmq.client-pause.none\nfencecheck run --workload queue --client bullmq');
    // Every row has the header's column count (no cell broke a column).
    const rows = md.split('\n').filter((l) => l.startsWith('| `'));
    for (const r of rows) expect(r.split(/(?<!\\)\|/).length).toBe(13);
  });

  it("lists each unsafe cell's shrunk reproduction under the table, with its rule, its rate and its replay", () => {
    const shrunk = [
      {
        id: 'bullmq.client-pause.none',
        summary: 'shrunk to 1 fault window (pause 2500 ms), 1 worker, 4 s; reproduced 3/3 (95% CI 44–100%)',
        replay: 'fencecheck run --workload queue --client bullmq --script \'[{"atMs":1000,"durationMs":2500,"fault":"pause"}]\'',
        exitCode: 1,
        durationMs: 180_000,
      },
      { id: 'pg-boss.client-pause.none', summary: 'not shrunk: the original plan reproduced 1/3, at least 2 of 3 needed', exitCode: 2, durationMs: 60_000 },
    ];
    const md = renderQueueMatrix([measured], facts, { shrunk, shrinkRule: 'a candidate kept when 2 of 3 re-runs fail' });
    expect(md).toContain('Shrunk reproductions (`npm run queues -- --shrink`, a candidate kept when 2 of 3 re-runs fail; 4 min for 2 cells)');
    expect(md).toContain('- `bullmq.client-pause.none`: shrunk to 1 fault window (pause 2500 ms), 1 worker, 4 s; reproduced 3/3');
    expect(md).toContain('- `pg-boss.client-pause.none`: not shrunk: the original plan reproduced 1/3');
    expect(md).toContain(`# bullmq.client-pause.none, shrunk\n${shrunk[0]!.replay}`);
    expect(md.endsWith(GENERATED_END)).toBe(true);
    expect(md).not.toContain('Not shrunk in this set');
    // An unsafe cell the set has no shrink of is named, not left out.
    const other: QueueCellRecord = { ...measured, id: 'bull.server-kill.none', library: 'bull', fault: 'server-kill', outcome: 'unsafe' };
    const partial = renderQueueMatrix([measured, other], facts, { shrunk, shrinkRule: 'a candidate kept when 2 of 3 re-runs fail' });
    expect(partial).toContain('Not shrunk in this set (1 unsafe cell; `npm run queues -- --shrink --out DIR` resumes): `bull.server-kill.none`.');
    // Without shrinks the section is what it was.
    expect(renderQueueMatrix([measured], facts)).not.toContain('Shrunk reproductions');
  });

  it('replaces only the text between the markers, appends both when the document has none, and refuses a lone marker', () => {
    const section = renderQueueMatrix([measured], facts);
    const doc = `# Queues\n\nprose before\n\n${GENERATED_BEGIN}\nold table\n${GENERATED_END}\n\nprose after\n`;
    const out = replaceGenerated(doc, section, 'q.md');
    expect(out).toBe(`# Queues\n\nprose before\n\n${section}\n\nprose after\n`);
    expect(replaceGenerated(out, section, 'q.md')).toBe(out);
    expect(replaceGenerated('# Queues\n', section, 'q.md')).toBe(`# Queues\n\n${section}\n`);
    expect(() => replaceGenerated(`${GENERATED_BEGIN}\nno end`, section, 'q.md')).toThrow(UsageError);
    expect(() => replaceGenerated(`${GENERATED_END}\n${GENERATED_BEGIN}`, section, 'q.md')).toThrow(/out of order/);
  });
});

describe('npm run queues (the built entry)', () => {
  it('lists each cell with the command that replays it under --dry-run, n/a where the mode is not served, and runs nothing', () => {
    const r = queues(['--dry-run', '--only', 'rq', '--out', '/tmp/fc-queues-dry']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      'rq.client-pause.none',
      'rq.client-pause.idempotent',
      'rq.client-pause.attempt-fence',
      'rq.client-kill.none',
      'rq.server-kill.none',
      'rq.server-kill-aof.none',
      'rq.server-kill-sentinel.none',
    ]);
    expect(lines[6]).toContain('--backend redis-sentinel --client rq --resource none --nemesis server-kill');
    expect(lines[0]).toContain('fencecheck run --workload queue --backend redis --client rq --resource none --nemesis client-pause --time-limit 30');
    expect(lines[2]).toMatch(/: n\/a \(rq's worker exposes no attempt number/);
  });

  it("lists the claims' cells under --claims --dry-run: each row of the libraries asked for at each seed", () => {
    const r = queues(['--claims', '--dry-run', '--only', 'pg-boss', '--seeds', '2', '--seed', '7', '--out', '/tmp/fc-queues-dry']);
    expect(r.status).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(':')[0]),
    ).toEqual([
      'claim.at-least-once.pg-boss.client-pause.none.s7',
      'claim.at-least-once.pg-boss.client-pause.none.s8',
      'claim.attempt-fence.pg-boss.client-pause.attempt-fence.s7',
      'claim.attempt-fence.pg-boss.client-pause.attempt-fence.s8',
    ]);
    expect(r.stdout).toContain('--time-limit 60 --clients 5 --rate 2 --hold-ms 200 --ttl-ms 2000 --interval-ms 7000 --duration-ms 5000');
  });

  it('refuses an unknown library, a missing --from directory, a --parallel out of range and --seeds without --claims with 254 and a hint', () => {
    for (const args of [
      ['--only', 'sidekiq'],
      ['--from', '/nonexistent/fc-queues'],
      ['--parallel', '0'],
      ['--seeds', '3'],
    ]) {
      const r = queues(args);
      expect(r.status, args.join(' ')).toBe(254);
      expect(r.stderr).toMatch(/Expected/);
    }
    expect(queues(['--only', 'sidekiq']).stderr).toMatch(/Hint: The libraries: bullmq, .*rq\./);
  });

  it("says --weigh's range in --help as its parser holds it (its help once gave --seeds' 1..1000 while 2..100 was enforced)", () => {
    const help = queues(['--help']).stdout;
    const line = help.slice(help.indexOf('--weigh <n>'), help.indexOf('--shrink-runs'));
    expect(line.replace(/\s+/g, ' ')).toContain('[2..100]');
    for (const bad of ['1', '101']) {
      const r = queues(['--weigh', bad, '--dry-run', '--only', 'rq']);
      expect(r.status, `--weigh ${bad}`).toBe(254);
      expect(r.stderr).toContain('`--weigh`');
    }
  });
});

describe('the claims', () => {
  it('run every row at each seed, with options the run command accepts and the row settings applied', () => {
    const cells = claimCells(11, 3);
    expect(cells).toHaveLength(QUEUE_CLAIMS.reduce((t, c) => t + c.rows.length, 0) * 3);
    expect(new Set(cells.map((c) => c.id)).size).toBe(cells.length);
    for (const c of cells) {
      const o = claimCellOptions(c, '/tmp/r');
      expect(() => validateQueueOptions(o)).not.toThrow();
      expect(o.seed).toBeGreaterThanOrEqual(11);
      expect(o.seed).toBeLessThanOrEqual(13);
      for (const [k, v] of Object.entries(c.row.settings ?? {})) expect(o[k as keyof typeof o]).toBe(v);
    }
    // One stall a minute per worker: a window every 12 s among five workers, for a minute.
    const atLeastOnce = cells.find((c) => c.claim.id === 'at-least-once')!;
    const o = claimCellOptions(atLeastOnce, '/tmp/r');
    expect(((o.intervalMs + o.durationMs) * o.workers) / 1000).toBe(60);
    expect(o.timeLimitS).toBe(60);
  });

  it('pool a row over its seeds: verdicts tallied, duplicates pooled with Wilson and per seed with t, the first unsafe seed replayed', () => {
    const run = (seed: number, duplicated: number, outcome: string): ClaimRecord => ({
      id: `claim.at-least-once.bullmq.client-pause.none.s${seed}`,
      library: 'bullmq',
      server: 'redis',
      fault: 'client-pause',
      mode: 'none',
      claim: 'at-least-once',
      rowKey: 'bullmq.client-pause.none',
      seed,
      settings: '`--time-limit 60`',
      outcome,
      exitCode: outcome === 'unsafe' ? 1 : 0,
      counts: { done: 500, duplicated, lost: 0, wasted: 0, redelivered: duplicated },
      replay: `fencecheck run --seed ${seed}`,
    });
    const records = [run(1, 0, 'safe'), run(2, 5, 'unsafe'), run(3, 10, 'unsafe')];
    const md = renderQueueClaims(QUEUE_CLAIMS, records, { date: '2026-12-06', wall: '1 min', seeds: '3 seeds' });
    const pooled = wilsonInterval(15, 1500);
    const perSeed = meanInterval([0, 10, 20])!;
    expect(md).toContain(
      `| \`bullmq\` | worker stalled | none | \`--time-limit 60\` | 2 / 1 / 0 | 15 of 1500 (10.0, ${perThousand(pooled.low)}–${perThousand(pooled.high)}) | 10.0 (${perSeed.low.toFixed(1)}–${perSeed.high.toFixed(1)}) | 0 | 0 | 15 | seed 2 |`,
    );
    expect(md).toContain('# at-least-once: bullmq.client-pause.none, seed 2\nfencecheck run --seed 2');
    // A row with no unsafe seed is weighed by its safe (tested) seeds; an untested seed weighs nothing.
    const clean = renderQueueClaims(QUEUE_CLAIMS, [run(1, 0, 'safe'), run(2, 0, 'safe'), run(3, 0, 'untested')], { date: 'd', wall: 'w', seeds: '3' });
    expect(clean).toContain(`| 0 / 2 / 1 | 0 of 1500 (0.0, 0.0–${perThousand(wilsonInterval(0, 1500).high)}) |`);
    expect(clean).toContain(`| 2 safe seeds: a failure in ≥ ${formatPercent(ruledOutRate(2)!)} of runs ruled out |`);
    expect(md.startsWith(CLAIM_MARKERS.begin)).toBe(true);
    // The claims' markers are their own: the matrix's section is left alone when the claims are written.
    const doc = `${GENERATED_BEGIN}\nmatrix\n${GENERATED_END}\n`;
    expect(replaceGenerated(doc, md, 'q.md', CLAIM_MARKERS)).toBe(`${doc.trimEnd()}\n\n${md}\n`);
  });
});
