/**
 * `npm run bench:check`: the checker on the public corpus, per family.
 *
 * Each family runs in a child process of its own so its peak RSS is its own
 * (and a family that blows up cannot skew the next). Histories are parsed
 * before the clock starts: "check time" is the search alone, as Porcupine's
 * reference figures are. Prints a table with Porcupine v1.3.0's figures on
 * this machine kind and the ratio; `--json` prints the raw figures.
 *
 * Then the whole-process table (whole-process.ts): `fencecheck check` as a
 * user runs it, beside Porcupine when PORCUPINE_DIR names a checkout and Go is
 * installed, else beside dated reference figures; start-up beside `node -e 0`;
 * generated long histories (100k and 1M ops; kv on 64 keys, 200k and 1M).
 * FENCECHECK_BENCH_CLI measures another build's entry instead of this one;
 * FENCECHECK_BENCH_BEFORE measures another build in the same runs, interleaved
 * (a before/after table from one sitting).
 *
 *   npm run bench:check [-- --json] [-- --families etcd,kv] [-- --timeout-ms 60000] [-- --runs 5] [-- --cap-s 120] [-- --no-whole-process]
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { check } from '../core/checkers/linearizability/check.js';
import { createModel } from '../core/checkers/models/registry.js';
import { corpusDir, readManifest, type CorpusEntry } from '../src/corpus/manifest.js';
import { readHistory } from '../src/history/read-history.js';
import { wholeProcessTable } from './whole-process.js';

/** Whether progress may redraw one line (stderr is a terminal). */
const LIVE = process.stderr.isTTY === true;

interface FamilySpec {
  name: string;
  family: string;
  partition: boolean;
  /** Porcupine v1.3.0 on a 2-core machine of this kind (shared/data/README.md), seconds. */
  porcupineTotalS?: number;
  porcupineNote: string;
}

const FAMILIES: FamilySpec[] = [
  { name: 'etcd', family: 'etcd', partition: true, porcupineTotalS: 0.5, porcupineNote: '0.50 s total, worst 0.22 s' },
  { name: 'kv', family: 'kv', partition: true, porcupineTotalS: 0.24, porcupineNote: '0.24 s total, c50-ok 0.21 s' },
  { name: 'mutex', family: 'mutex', partition: true, porcupineNote: '(Knossos only)' },
  { name: 'kv --no-partition', family: 'kv', partition: false, porcupineNote: 'c10 1.6–4.0 s each; c50 undecided after 120 s (8.6 GB)' },
];

interface FileFigure {
  file: string;
  expected: string;
  got: string;
  checkMs: number;
  reason?: string;
}

interface FamilyFigures {
  name: string;
  files: number;
  right: number;
  parseMs: number;
  checkMs: number;
  worst: { file: string; ms: number };
  peakRssMB: number;
  perFile: FileFigure[];
}

async function runFamily(spec: FamilySpec, entries: CorpusEntry[], timeoutMs: number): Promise<FamilyFigures> {
  const t0 = performance.now();
  const histories = await Promise.all(entries.map((e) => readHistory(e.path, { format: e.format })));
  const parseMs = performance.now() - t0;
  const perFile: FileFigure[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const model = createModel(e.model, { partition: spec.partition });
    const start = performance.now();
    const r = check(model, histories[i]!, { timeoutMs });
    const got = r.valid === true ? 'valid' : r.valid === false ? 'invalid' : 'unknown';
    perFile.push({ file: e.file, expected: e.expected, got, checkMs: performance.now() - start, ...(r.reason ? { reason: r.reason } : {}) });
    // A live line only on a terminal: redirected to a file or a CI log, \r and the erase sequence are noise.
    if (LIVE) process.stderr.write(`  ${spec.name}: ${e.file} ${got} ${(performance.now() - start).toFixed(1)} ms\x1b[K\r`);
  }
  if (LIVE) process.stderr.write('\x1b[K');
  const worst = perFile.reduce((w, f) => (f.checkMs > w.checkMs ? f : w), perFile[0]!);
  return {
    name: spec.name,
    files: entries.length,
    right: perFile.filter((f) => f.got === f.expected).length,
    parseMs,
    checkMs: perFile.reduce((s, f) => s + f.checkMs, 0),
    worst: { file: worst.file, ms: worst.checkMs },
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    perFile,
  };
}

function table(all: FamilyFigures[]): string {
  const rows = [['family', 'files', 'right', 'check s', 'worst file', 'worst s', 'peak RSS', 'Porcupine v1.3.0', 'speed-up']];
  for (const f of all) {
    const spec = FAMILIES.find((s) => s.name === f.name)!;
    const ratio = spec.porcupineTotalS ? `${(spec.porcupineTotalS / (f.checkMs / 1000)).toFixed(1)}x` : '—';
    rows.push([
      f.name,
      String(f.files),
      `${f.right}/${f.files}`,
      (f.checkMs / 1000).toFixed(3),
      f.worst.file.split('/').pop()!,
      (f.worst.ms / 1000).toFixed(3),
      `${Math.round(f.peakRssMB)} MB`,
      spec.porcupineNote,
      ratio,
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
  const timeoutMs = Number(flag('--timeout-ms') ?? 60_000);
  const manifest = readManifest();
  if (!manifest) {
    process.stderr.write(`bench:check: the corpus is not at ${corpusDir()} (set FENCECHECK_DATA); nothing to measure.\n`);
    process.exitCode = 254;
    return;
  }
  const child = flag('--child');
  if (child !== undefined) {
    const spec = FAMILIES.find((s) => s.name === child)!;
    const figures = await runFamily(
      spec,
      manifest.filter((e) => e.family === spec.family),
      timeoutMs,
    );
    process.send!(figures);
    return;
  }
  const wanted = flag('--families')?.split(',');
  const specs = FAMILIES.filter((s) => !wanted || wanted.includes(s.name) || wanted.includes(s.name.split(' ')[0]!));
  const all: FamilyFigures[] = [];
  for (const spec of specs) {
    process.stderr.write(`bench:check: ${spec.name}…\n`);
    all.push(await runChild(spec.name, timeoutMs));
  }
  if (args.includes('--json')) process.stdout.write(JSON.stringify(all, null, 2) + '\n');
  else {
    process.stdout.write(table(all) + '\n');
    for (const f of all)
      for (const file of f.perFile)
        if (file.got !== file.expected)
          process.stdout.write(
            `  ${f.name}: ${file.file} expected ${file.expected}, got ${file.got}${file.reason ? ` (${file.reason})` : ''} in ${(file.checkMs / 1000).toFixed(1)} s\n`,
          );
  }
  if (!args.includes('--no-whole-process') && !args.includes('--json')) {
    const log = (s: string) => process.stderr.write(s);
    process.stdout.write('\n' + wholeProcessTable(manifest, Number(flag('--runs') ?? 5), log, Number(flag('--cap-s') ?? 120)));
  }
  if (all.some((f) => f.perFile.some((p) => p.got !== p.expected && p.got !== 'unknown'))) process.exitCode = 1;
}

function runChild(name: string, timeoutMs: number): Promise<FamilyFigures> {
  return new Promise((resolvePromise, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', name, '--timeout-ms', String(timeoutMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let figures: FamilyFigures | undefined;
    proc.on('message', (m) => (figures = m as FamilyFigures));
    proc.on('exit', (code) => (figures ? resolvePromise(figures) : reject(new Error(`bench child for ${name} exited with ${code}`))));
  });
}

await main();
