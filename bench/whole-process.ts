/**
 * The whole-process part of `npm run bench:check`: fencecheck as a user runs
 * it (`fencecheck check ...`, a fresh process: start-up, parse and search),
 * side by side with Porcupine's harness (porcupine-harness.ts) when one can
 * be built, on the same files, interleaved run by run, medians reported.
 * Without Porcupine, the reference figures below are printed with their date
 * and machine instead.
 *
 * Rows: start-up beside a bare `node -e 0`; the etcd and kv families of the
 * corpus; a directory of 120 small seeded EDN histories (100–300 ops, the
 * issue's target: 0.3 s); seeded long 5-process etcd-format histories
 * (long-history.ts) of 100,000 and 1,000,000 ops (Porcupine is not run on the million: at 100,000
 * ops it already needs over a gigabyte); seeded kv histories on 64 keys (long-kv-history.ts) of 200,000
 * ops (with Porcupine) and 1,000,000 ops.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusEntry } from '../src/corpus/manifest.js';
import { writeLongHistory } from './long-history.js';
import { writeLongKvHistory } from './long-kv-history.js';
import { buildPorcupineHarness } from './porcupine-harness.js';

/** The CLI measured: this build's, or another build's entry (FENCECHECK_BENCH_CLI). */
const CLI = process.env['FENCECHECK_BENCH_CLI'] ?? fileURLToPath(new URL('../bundle/main.js', import.meta.url));
/**
 * Another build's entry to measure in the same runs, interleaved (FENCECHECK_BENCH_BEFORE): a before/after
 * table from one sitting, where two sittings on a shared machine differed by a third on the same build.
 */
const BEFORE = process.env['FENCECHECK_BENCH_BEFORE'];
const TIME = '/usr/bin/time';
const TIMEOUT = '/usr/bin/timeout';

/**
 * Environment variables that make every Node process start slower, whatever it runs: Node 20 reads the
 * certificates of NODE_EXTRA_CA_CERTS at start-up, before any of the program's code (Node 23 defers it). On
 * this sandbox it is set (a proxy's CA bundle, ~150 certificates) and added 0.07 s to `node -e 0` (0.06 s
 * without it, 0.13 s with it), a fifth of Porcupine's whole kv run; `fencecheck check` makes no TLS
 * connection, and Porcupine's Go binary does not read it. The rows run without them; where one is set, the
 * start-up and the two corpus rows are measured with it as well, so both figures are in the table.
 */
const START_UP_ENV = ['NODE_EXTRA_CA_CERTS'] as const;
const setStartUpEnv = START_UP_ENV.filter((name) => process.env[name] !== undefined);
const childEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(START_UP_ENV as readonly string[]).includes(name)));

/**
 * Porcupine's whole-process figures when no checkout is given: the medians this
 * bench measured (7 interleaved runs, the same files, the long history from seed 12).
 */
const REFERENCE = {
  when: '2026-12-01, Porcupine v1.3.0 built with Debian go 1.19, a 2-core Debian 12 machine of this kind (load below 1)',
  seconds: { etcd: 0.394, kv: 0.228, 'long 100k': 1.547, 'long kv 200k, 64 keys': 1.352 } as Record<string, number>,
  rssMB: { etcd: 29, kv: 57, 'long 100k': 2074, 'long kv 200k, 64 keys': 225 } as Record<string, number>,
};

interface Row {
  name: string;
  fencecheck: string[];
  porcupine?: string[];
  /** Ratio against this row's fencecheck time instead of Porcupine's (start-up rows). */
  versus?: string;
  /** Run with the environment as the bench was given it (START_UP_ENV kept), not without those variables. */
  asGiven?: boolean;
}

interface Sample {
  seconds: number;
  rssMB?: number;
}

export function wholeProcessTable(corpus: CorpusEntry[], runs: number, log: (s: string) => void, capS = 120): string {
  const work = mkdtempSync(join(tmpdir(), 'fencecheck-bench-'));
  try {
    const harness = buildPorcupineHarness();
    if ('missing' in harness) log(`bench:check: Porcupine not run side by side: ${harness.missing}; printing reference figures\n`);
    const porc = 'binary' in harness ? harness.binary : undefined;
    const rows = benchRows(writeInputs(work), corpus, porc);
    const samples = sampleRows(rows, runs, capS, log);
    const versionHeader = 'binary' in harness ? `${harness.version} s` : 'Porcupine (reference) s';
    const table = formatTable(rows, samples, versionHeader, capS);
    const note = porc
      ? `medians of ${runs} interleaved runs (the 1M rows: ${Math.min(runs, 3)}); ratio = fencecheck / Porcupine, whole process`
      : `medians of ${runs} runs; Porcupine figures in parentheses are references from ${REFERENCE.when} (set PORCUPINE_DIR to a Porcupine checkout, with Go, to measure side by side)`;
    return `${table}\n${note}${BEFORE ? `; before: ${BEFORE}, in the same runs` : ''}\n${startUpEnvNote()}`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

interface BenchInputs {
  twoOp: string;
  long100k: string;
  long1m: string;
  longKv: string;
  longKv1m: string;
  edn: string;
}

/** The generated histories the rows check, seeded, under `work`. */
function writeInputs(work: string): BenchInputs {
  const twoOp = join(work, 'two-op.jsonl');
  writeFileSync(
    twoOp,
    '{"index":0,"time":0,"process":0,"type":"invoke","f":"write","value":1}\n{"index":1,"time":1,"process":0,"type":"ok","f":"write","value":1}\n',
  );
  const long100k = join(work, 'long-100k.log');
  const long1m = join(work, 'long-1m.log');
  writeLongHistory(long100k, { ops: 100_000, seed: 12 });
  writeLongHistory(long1m, { ops: 1_000_000, seed: 12 });
  // Many partitions in one long history. No timed-out ops: Porcupine's test parser gives a call that never
  // returns an empty output at the end, so a pending get would have to read "" there (fencecheck drops it).
  const longKv = join(work, 'long-kv-200k.txt');
  writeLongKvHistory(longKv, { ops: 200_000, seed: 12, keys: 64, infoRate: 0 });
  // The million-op target on many keys, with timed-out ops (fencecheck only, like long 1M).
  const longKv1m = join(work, 'long-kv-1m.txt');
  writeLongKvHistory(longKv1m, { ops: 1_000_000, seed: 12, keys: 64 });
  // The issue's "directory of 120 small Jepsen EDN histories" (the corpus has one EDN file): 100–300 ops each, seeded.
  const edn = join(work, 'edn-120');
  mkdirSync(edn);
  for (let i = 0; i < 120; i++)
    writeLongHistory(join(edn, `h${String(i).padStart(3, '0')}.edn`), { ops: 100 + ((i * 37) % 201), seed: 1000 + i, format: 'edn' });
  return { twoOp, long100k, long1m, longKv, longKv1m, edn };
}

/** What the table says of START_UP_ENV: which were set here and left out of the rows (empty when none was). */
function startUpEnvNote(): string {
  if (setStartUpEnv.length === 0) return '';
  return `${setStartUpEnv.join(', ')} set in this environment: every Node process reads it at start-up (Node 20), before fencecheck runs; the rows run without it, the rows "…, ${setStartUpEnv.join(', ')} as set" with it\n`;
}

function benchRows(i: BenchInputs, corpus: CorpusEntry[], porc: string | undefined): Row[] {
  const rows = corpusAndGeneratedRows(i, corpus, porc);
  if (setStartUpEnv.length === 0) return rows;
  // The same start-up and corpus rows with the environment as given, so the cost of those variables is in the table.
  const asGiven = new Set(['node -e 0', 'etcd', 'kv']);
  const suffix = `, ${setStartUpEnv.join(', ')} as set`;
  const extra = rows.filter((r) => asGiven.has(r.name)).map((r): Row => ({ ...r, name: r.name + suffix, asGiven: true }));
  return [...rows, ...extra];
}

function corpusAndGeneratedRows(i: BenchInputs, corpus: CorpusEntry[], porc: string | undefined): Row[] {
  const files = (family: string) => corpus.filter((e) => e.family === family).map((e) => e.path);
  return [
    { name: 'node -e 0', fencecheck: [process.execPath, '-e', '0'] },
    { name: 'fencecheck --version', fencecheck: [process.execPath, CLI, '--version'], versus: 'node -e 0' },
    { name: 'check, 2-op history', fencecheck: [process.execPath, CLI, 'check', i.twoOp, '--model', 'register'], versus: 'node -e 0' },
    {
      name: 'etcd',
      fencecheck: [process.execPath, CLI, 'check', ...files('etcd'), '--model', 'etcd'],
      ...(porc ? { porcupine: [porc, 'etcd', ...files('etcd')] } : {}),
    },
    { name: 'kv', fencecheck: [process.execPath, CLI, 'check', ...files('kv'), '--model', 'kv'], ...(porc ? { porcupine: [porc, 'kv', ...files('kv')] } : {}) },
    { name: '120 EDN, 100–300 ops', fencecheck: [process.execPath, CLI, 'check', i.edn, '--model', 'cas-register'] },
    {
      name: 'long 100k',
      fencecheck: [process.execPath, CLI, 'check', i.long100k, '--model', 'etcd'],
      ...(porc ? { porcupine: [porc, 'etcd', i.long100k] } : {}),
    },
    { name: 'long 1M', fencecheck: [process.execPath, CLI, 'check', i.long1m, '--model', 'etcd'] },
    {
      name: 'long kv 200k, 64 keys',
      fencecheck: [process.execPath, CLI, 'check', i.longKv, '--model', 'kv'],
      ...(porc ? { porcupine: [porc, 'kv', i.longKv] } : {}),
    },
    { name: 'long kv 1M, 64 keys', fencecheck: [process.execPath, CLI, 'check', i.longKv1m, '--model', 'kv'] },
  ];
}

/** Every row `runs` times, interleaved (fencecheck, before, Porcupine in turn), keyed `name/f`, `name/b`, `name/p`. */
function sampleRows(rows: readonly Row[], runs: number, capS: number, log: (s: string) => void): Map<string, Sample[]> {
  const fewerRuns = new Set(['long 1M', 'long kv 1M, 64 keys']);
  const samples = new Map<string, Sample[]>();
  const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
  for (let r = 0; r < runs; r++) {
    log(`bench:check: whole process, run ${r + 1}/${runs}…\n`);
    for (const row of rows) {
      if (fewerRuns.has(row.name) && r >= Math.min(runs, 3)) continue;
      // A row that hit the cap once is not run again (a quadratic build would spend the whole bench there).
      if (samples.get(`${row.name}/f`)?.some((s) => s.seconds === Infinity)) continue;
      const env = row.asGiven ? process.env : childEnv;
      add(`${row.name}/f`, measure(row.fencecheck, capS, env));
      if (BEFORE && row.fencecheck[1] === CLI) add(`${row.name}/b`, measure([row.fencecheck[0]!, BEFORE, ...row.fencecheck.slice(2)], capS, env));
      if (row.porcupine) add(`${row.name}/p`, measure(row.porcupine, capS, env));
    }
  }
  return samples;
}

function formatTable(rows: readonly Row[], samples: Map<string, Sample[]>, versionHeader: string, capS: number): string {
  const header = ['what', ...(BEFORE ? ['before s', 'peak RSS'] : []), 'fencecheck s', 'peak RSS', versionHeader, 'peak RSS', 'ratio'];
  const lines = [header];
  for (const row of rows) {
    const f = median(samples.get(`${row.name}/f`)!);
    const p = row.porcupine ? median(samples.get(`${row.name}/p`)!) : undefined;
    const refS = REFERENCE.seconds[row.name];
    const refRss = REFERENCE.rssMB[row.name];
    const base = row.versus ? median(samples.get(`${row.versus}/f`)!) : undefined;
    const other = p?.seconds ?? refS;
    const ratio =
      f.seconds === Infinity
        ? '—'
        : base
          ? `${(f.seconds / base.seconds).toFixed(2)}x node -e 0`
          : other
            ? `${(f.seconds / other).toFixed(2)}x Porcupine`
            : '—';
    const b = samples.get(`${row.name}/b`);
    const before = b ? median(b) : undefined;
    lines.push([
      row.name,
      ...(BEFORE ? (before ? [seconds(before.seconds, capS), mb(before.rssMB)] : ['—', '—']) : []),
      seconds(f.seconds, capS),
      mb(f.rssMB),
      p ? seconds(p.seconds, capS) : refS !== undefined ? `(${refS.toFixed(2)})` : '—',
      p ? mb(p.rssMB) : refRss !== undefined ? `(${refRss} MB)` : '—',
      ratio,
    ]);
  }
  const widths = header.map((_, c) => Math.max(...lines.map((l) => l[c]!.length)));
  return lines.map((l) => l.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
}

/**
 * One run: wall seconds and, with GNU time, the peak RSS. A run past `capS`
 * is killed (coreutils timeout, SIGKILL) and counts as Infinity: a build with
 * a quadratic search must not hold the bench for hours.
 */
function measure(argv: string[], capS: number, env: NodeJS.ProcessEnv): Sample {
  const withTime = existsSync(TIME);
  const capped = existsSync(TIMEOUT) ? [TIMEOUT, '-s', 'KILL', String(capS), ...argv] : argv;
  const cmd = withTime ? TIME : capped[0]!;
  const args = withTime ? ['-f', '@@%e %M', ...capped] : capped.slice(1);
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 2 ** 20, env });
  const wall = (performance.now() - t0) / 1000;
  const m = /@@([\d.]+) (\d+)/.exec(r.stderr ?? '');
  // timeout's own code for a killed child is 137 (128 + SIGKILL).
  // (GNU time's figure for a killed run is timeout's own, not the check's: none is reported.)
  if (r.status === 137 || r.signal === 'SIGKILL') return { seconds: Infinity };
  if (r.status !== null && r.status >= 254) throw new Error(`bench:check: ${argv.join(' ').slice(0, 200)} failed (${r.status}): ${r.stderr.slice(-500)}`);
  // Wall time from here (GNU time's %e has only 10 ms resolution), peak RSS from GNU time.
  return m ? { seconds: wall, rssMB: Number(m[2]) / 1024 } : { seconds: wall };
}

function median(samples: Sample[]): Sample {
  const by = <K extends keyof Sample>(k: K) =>
    samples
      .map((s) => s[k])
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
  const mid = <T>(xs: T[]) => xs[(xs.length - 1) >> 1];
  const rss = mid(by('rssMB'));
  return { seconds: mid(by('seconds'))!, ...(rss !== undefined ? { rssMB: rss } : {}) };
}

function seconds(s: number, capS: number): string {
  return s === Infinity ? `> ${capS} (killed)` : s.toFixed(3);
}

function mb(v: number | undefined): string {
  return v === undefined ? '—' : `${Math.round(v)} MB`;
}
