/**
 * npm run bench:harness -- [--runs N] [--seconds S] [--backends a,b] [--modes fresh,warm] [--trace]:
 * per backend, N consecutive short lock runs on a fresh cluster each (started
 * and torn down per run, as `fencecheck run` does), then N on one warm
 * cluster (a WarmPool: reset and clean-checked between runs), side by side in
 * one sitting (lock-counter on the fenced resource: fence, or cas-unique for
 * Redlock). Each run has a client pause and a partition in it, so the
 * reset has faults to heal and lock state to clear. Printed per backend and
 * mode: the wall time of the N runs, and the overhead per run beyond the
 * workload and the recovery wait (wall − timeLimit − recoverMs), with the
 * median cluster start (fresh) or reset + clean check (warm). Starts real
 * clusters: run it under the machine's cluster lock (flock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { parseArgs as parseCliArgs } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTestJson } from '../runtime/store/read-run-files.js';
import { DEFAULTS, type RunOptions } from '../core/plan/run-options.js';
import { runLockTest } from '../src/run/run-lock-test.js';
import { WarmPool } from '../runtime/runner/warm-pool.js';
import { type ClusterRecord } from '../core/run-files/cluster-record.js';
import { LOCK_BACKENDS, type LockBackend } from '../core/vocabulary.js';

type Mode = 'fresh' | 'warm';

interface Args {
  runs: number;
  seconds: number;
  backends: LockBackend[];
  modes: Mode[];
  /** Print each run's log lines with their times (ms since the run began), to see where a run's overhead goes. */
  trace: boolean;
}

const USAGE = 'npm run bench:harness -- [--runs N] [--seconds S] [--backends a,b] [--modes fresh,warm] [--trace]';

/** The options, strictly: an unknown flag or --help prints the usage instead of starting real clusters. */
function parseArgs(argv: readonly string[]): Args | undefined {
  const { values: v } = parseCliArgs({
    args: [...argv],
    strict: true,
    options: {
      runs: { type: 'string' },
      seconds: { type: 'string' },
      backends: { type: 'string' },
      modes: { type: 'string' },
      trace: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) return undefined;
  const backends = (v.backends ?? 'redis,redlock,etcd,zookeeper,redis-sentinel').split(',') as LockBackend[];
  for (const b of backends) if (!(LOCK_BACKENDS as readonly string[]).includes(b)) throw new Error(`unknown backend ${b}; one of ${LOCK_BACKENDS.join(', ')}`);
  const modes = (v.modes ?? 'fresh,warm').split(',') as Mode[];
  for (const m of modes) if (m !== 'fresh' && m !== 'warm') throw new Error(`unknown mode ${m}; fresh or warm`);
  const runs = Number(v.runs ?? 20);
  const seconds = Number(v.seconds ?? 3);
  if (!Number.isInteger(runs) || runs < 1 || !(seconds > 0)) throw new Error('--runs must be an integer >= 1 and --seconds > 0');
  return { runs, seconds, backends, modes, trace: v.trace ?? false };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function optionsFor(backend: LockBackend, seconds: number, seed: number, resultsDir: string): RunOptions {
  return {
    ...DEFAULTS,
    backend,
    // Redlock has no monotonic token: antirez's unique-token check-and-set is its fenced resource.
    resource: backend === 'redlock' || backend === 'redlock-npm' ? 'cas-unique' : 'fence',
    workload: 'lock-counter',
    nemesis: ['client-pause', 'partition'],
    timeLimitS: seconds,
    clients: 3,
    ttlMs: 1000,
    intervalMs: 1000,
    durationMs: 500,
    recoverMs: 1000,
    seed,
    resultsDir,
  };
}

interface Row {
  backend: LockBackend;
  mode: Mode;
  runs: number;
  wallMs: number;
  overheadMs: number[];
  /** The runs on a reused cluster only (a pool's first run starts it fresh). */
  reusedOverheadMs: number[];
  clusterMs: number[];
  /** Per run, from the run's own log lines: cluster taken to main phase (clients started), heal to recovery (workers done), recovery's end to the run's return (final read, checks, report, a fresh run's teardown), teardown. */
  phases: { setup: number[]; drain: number[]; tail: number[]; teardown: number[] };
  fresh: number;
  errors: string[];
}

/** The phase lengths of one run from its log lines and their times (ms since the run began). */
function phasesOf(lines: readonly { at: number; line: string }[], endAt: number): { setup?: number; drain?: number; tail?: number; teardown?: number } {
  const at = (re: RegExp): { at: number; m: RegExpExecArray } | undefined => {
    for (const l of lines) {
      const m = re.exec(l.line);
      if (m) return { at: l.at, m };
    }
    return undefined;
  };
  const lastReady = [...lines].reverse().find((l) => /^cluster: .*ready in|^warm cluster: reused/.test(l.line));
  const main = at(/^main phase:/);
  const heal = at(/^heal: ending/);
  const recover = at(/^recover: (\d+) ms/);
  const torn = at(/torn down in (\d+) ms/);
  return {
    ...(main && lastReady ? { setup: main.at - lastReady.at } : {}),
    ...(heal && recover ? { drain: recover.at - heal.at } : {}),
    ...(recover ? { tail: endAt - recover.at - Number(recover.m[1]) } : {}),
    ...(torn ? { teardown: Number(torn.m[1]) } : {}),
  };
}

async function measure(backend: LockBackend, mode: Mode, a: Args, resultsDir: string): Promise<Row> {
  const pool = mode === 'warm' ? new WarmPool() : undefined;
  const row: Row = {
    backend,
    mode,
    runs: a.runs,
    wallMs: 0,
    overheadMs: [],
    reusedOverheadMs: [],
    clusterMs: [],
    phases: { setup: [], drain: [], tail: [], teardown: [] },
    fresh: 0,
    errors: [],
  };
  const t0 = Date.now();
  try {
    for (let i = 0; i < a.runs; i++) {
      const o = optionsFor(backend, a.seconds, i + 1, resultsDir);
      const began = Date.now();
      const lines: { at: number; line: string }[] = [];
      const log = (line: string): void => void lines.push({ at: Date.now() - began, line });
      try {
        const r = await runLockTest(o, { log, ...(pool ? { warm: pool } : {}) });
        const ph = phasesOf(lines, Date.now() - began);
        if (a.trace)
          process.stderr.write(
            `${backend} ${mode} run ${i + 1}:\n${lines.map((l) => `  ${String(l.at).padStart(6)} ms  ${l.line}`).join('\n')}\n  ${String(Date.now() - began).padStart(6)} ms  (returned)\n`,
          );
        for (const k of ['setup', 'drain', 'tail', 'teardown'] as const) if (ph[k] !== undefined) row.phases[k].push(ph[k]);
        const rec = readTestJson(r.runDir)?.['cluster'] as unknown as ClusterRecord | undefined;
        const overhead = Date.now() - began - o.timeLimitS * 1000 - o.recoverMs;
        row.overheadMs.push(overhead);
        if (rec && !rec.fresh) row.reusedOverheadMs.push(overhead);
        if (rec) row.clusterMs.push(rec.startMs);
        if (rec?.fresh) row.fresh++;
      } catch (err) {
        row.errors.push(err instanceof Error ? err.message : String(err));
      }
    }
  } finally {
    await pool?.close();
  }
  row.wallMs = Date.now() - t0;
  return row;
}

function line(r: Row): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  return [
    r.backend.padEnd(15),
    r.mode.padEnd(6),
    `${r.runs} runs in ${s(r.wallMs)}`.padEnd(20),
    `overhead/run median ${s(median(r.overheadMs))} (min ${s(Math.min(...r.overheadMs))}, max ${s(Math.max(...r.overheadMs))})`.padEnd(56),
    `${r.mode === 'warm' ? 'take (reset+check)' : 'start'} median ${s(median(r.clusterMs))}`.padEnd(34),
    `fresh clusters ${r.fresh}`,
    r.reusedOverheadMs.length > 0 ? `| reused runs' overhead median ${s(median(r.reusedOverheadMs))}` : '',
    `| medians: clients ${s(median(r.phases.setup))}, drain ${s(median(r.phases.drain))}, after recovery ${s(median(r.phases.tail))}${r.phases.teardown.length > 0 ? `, teardown ${s(median(r.phases.teardown))}` : ''}`,
    r.errors.length > 0 ? `  errors ${r.errors.length}: ${r.errors[0]}` : '',
  ].join(' ');
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  if (!a) return void process.stdout.write(`${USAGE}\n`);
  const resultsDir = mkdtempSync(join(tmpdir(), 'fc-harness-bench-'));
  process.stdout.write(
    `harness bench: ${a.runs} runs of ${a.seconds} s per backend and mode (lock-counter, fence or cas-unique, 3 clients, client-pause + partition, recover 1 s)\n`,
  );
  try {
    for (const b of a.backends) {
      for (const m of a.modes) process.stdout.write(`${line(await measure(b, m, a, resultsDir))}\n`);
    }
  } finally {
    rmSync(resultsDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  // A bad flag is the user's: said in one line with the usage, not as a stack trace.
  process.stderr.write(`bench:harness: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exitCode = 1;
});
