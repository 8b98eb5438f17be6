/**
 * `fencecheck check FILE... --model NAME`: check histories for
 * linearizability, one verdict line per file, the witness of each invalid one,
 * and the worst outcome as exit code (254 > 1 > 2 > 0: an unreadable file
 * outranks a verdict, a violation outranks an undecided file).
 */
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MODEL_NAMES, createModel, modelTakesInit, type ModelName } from '../../core/checkers/models/registry.js';
import type { CheckFilesOptions, FileCheck } from '../check/check-files.js';
import { checkFiles } from '../check/check-files.js';
import { expandHistoryPaths } from '../check/expand-paths.js';
import { isRunDir } from '../../runtime/store/run-dir-entries.js';
import { readQueueRun } from '../../runtime/store/read-run-files.js';
import { describeOp, formatFileCheck } from '../check/format-verdict.js';
import { EXIT, UsageError } from '../../core/errors.js';
import { HISTORY_FORMATS, type HistoryFormat } from '../history/read-history.js';
import type { Value } from '../../core/history/op.js';
import { FLAG_RANGES, jsonValue, numberFlag, oneOf, withRange } from './parse-options.js';
import { rangeHelp } from '../../core/number-range.js';
import type { Model } from '../../core/checkers/model.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import { DEFAULT_READ_LIMITS, MIB } from '../../core/history/read-limits.js';
import { oneLine, printable, printableJson } from '../../core/printable.js';
import { outcomeExitCode } from '../../core/run-files/stored-outcome.js';
import { tuneJitForCheck } from './short-check-jit.js';
import type { ResultsJson } from '../../core/run-files/results-json.js';

interface CheckFlags {
  model?: ModelName;
  init?: Value;
  format?: HistoryFormat;
  timeoutMs?: number;
  maxSearchMb?: number;
  json?: boolean;
  partition: boolean;
  maxHistoryMb?: number;
  maxLineMb?: number;
  tolerateTruncatedTail?: boolean;
  threads?: number;
}

export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('Check histories (files, or every history in a directory) for linearizability against a model, or re-check run directories.')
    .argument('<paths...>', 'history files or directories')
    .option('--model <name>', `model: ${MODEL_NAMES.join(', ')} (not needed for a run directory)`, oneOf('--model', MODEL_NAMES))
    .option('--init <json>', 'initial value for register, cas-register, etcd (e.g. 0 or null)', jsonValue('--init'))
    .option('--format <format>', `input format: ${HISTORY_FORMATS.join(', ')} (default: detected)`, oneOf('--format', HISTORY_FORMATS))
    .option('--timeout-ms <n>', withRange('give up on a file after N ms with verdict unknown', FLAG_RANGES['--timeout-ms']), numberFlag('--timeout-ms'))
    .option(
      '--max-search-mb <n>',
      withRange("memory ceiling of the search's tables; past it the verdict is unknown (default 448)", FLAG_RANGES['--max-search-mb']),
      numberFlag('--max-search-mb'),
    )
    .option('--no-partition', 'kv: keep one state for all keys instead of checking each key alone (stress)')
    .option(
      '--max-history-mb <n>',
      withRange(
        `refuse a history file larger than N MiB, by its size before reading, or whose operations would take more than N MiB of memory, estimated as read (default ${DEFAULT_READ_LIMITS.maxHistoryBytes / MIB})`,
        FLAG_RANGES['--max-history-mb'],
      ),
      numberFlag('--max-history-mb'),
    )
    .option(
      '--max-line-mb <n>',
      withRange(`refuse a line longer than N Mi characters (default ${DEFAULT_READ_LIMITS.maxLineChars / MIB})`, FLAG_RANGES['--max-line-mb']),
      numberFlag('--max-line-mb'),
    )
    .option('--tolerate-truncated-tail', 'JSON Lines: skip a last line cut by an interrupted run (with a warning) instead of failing')
    .option(
      '--threads <n>',
      `check files on N threads (default: the cores, ${availableParallelism()} here, when the files total ${AUTO_THREADS_MIN_BYTES / MIB} MiB or more, else 1); with one kv file, its keys are spread over N threads (only when given); 1 stays on one; verdicts and witnesses are the same [${rangeHelp(FLAG_RANGES['--threads'])}]`,
      numberFlag('--threads'),
    )
    .option('--json', 'print one JSON document with every result')
    .addHelpText(
      'after',
      `
Exit codes: 0 valid (a run directory: safe), 1 invalid, 2 unknown, 3 a run directory valid but untested
(no fault struck, or the lock never failed), 254 bad arguments or input, 255 internal error; the worst one wins.
Examples:
  fencecheck check ../shared/data/porcupine/etcd --model etcd
  fencecheck check history.jsonl --model cas-register --init 0 --timeout-ms 10000
  fencecheck check c50-ok.txt --model kv --no-partition --json
  fencecheck check results/etcd-fence-claim-lock-counter/latest     (re-run a run's checkers)`,
    )
    .action(async (paths: string[], flags: CheckFlags) => {
      process.exitCode = await runCheck(paths, flags);
    });
}

async function runCheck(paths: string[], flags: CheckFlags): Promise<number> {
  const runDirs = paths.filter(isRunDir);
  if (runDirs.length > 0) {
    if (runDirs.length !== paths.length) throw new UsageError('Expected either run directories or history files, got both', 'Check them in two commands.');
    assertNoHistoryFlags(flags);
    return checkRunDirs(runDirs, flags.json === true);
  }
  if (flags.model === undefined) {
    throw new UsageError(`Expected \`--model\` (one of ${MODEL_NAMES.join(', ')}) to check history files`, 'A run directory (with test.json) needs no model.');
  }
  return checkHistories(paths, { ...flags, model: flags.model });
}

/** The flags of history files mean nothing to a run directory (its test.json says how it is checked): refused, not ignored in silence. */
function assertNoHistoryFlags(flags: CheckFlags): void {
  const given = (
    [
      ['--model', flags.model],
      ['--init', flags.init],
      ['--format', flags.format],
      ['--timeout-ms', flags.timeoutMs],
      ['--max-search-mb', flags.maxSearchMb],
      ['--no-partition', flags.partition === false ? true : undefined],
      ['--max-history-mb', flags.maxHistoryMb],
      ['--max-line-mb', flags.maxLineMb],
      ['--tolerate-truncated-tail', flags.tolerateTruncatedTail],
      ['--threads', flags.threads],
    ] as const
  )
    .filter(([, v]) => v !== undefined)
    .map(([f]) => f);
  if (given.length === 0) return;
  throw new UsageError(
    `Expected no ${given.join(', ')} with run directories, got ${given.length === 1 ? 'it' : 'them'}: a run directory is checked as its run was (test.json names the workload and its checkers; a cut last line is always tolerated)`,
    'Drop the flag, or check the history file alone: fencecheck check RUN_DIR/history.jsonl --model mutex.',
  );
}

async function checkRunDirs(dirs: string[], json: boolean): Promise<number> {
  // Loaded here, not at start: the lock checkers are not needed to check history files.
  const [{ checkRunDir }, { formatVerdicts }, { formatOutcome }] = await Promise.all([
    import('../check/check-run-dir.js'),
    import('../check/format-lock-verdicts.js'),
    import('../check/format-outcome.js'),
  ]);
  const codes: number[] = [];
  const documents: unknown[] = [];
  for (const dir of dirs) {
    const warnings: HistoryWarning[] = [];
    const onWarning = (w: HistoryWarning): void => {
      warnings.push(w);
      if (!json) process.stderr.write(`warning: ${oneLine(w.message)}\n`);
    };
    const document = (r: ResultsJson, extra: Record<string, unknown> = {}): unknown => ({
      runDir: dir,
      valid: r.valid,
      outcome: r.outcome,
      evidence: r.evidence,
      deciding: r.deciding,
      checkers: r.checkers,
      ...extra,
      warnings,
    });
    const queueRun = readQueueRun(dir);
    if (queueRun !== null) {
      const { checkQueueRunDir } = await import('../check/check-queue-run-dir.js');
      const { formatQueueResults } = await import('../check/format-queue-results.js');
      const { results, carried } = checkQueueRunDir(dir, queueRun, onWarning);
      if (json) documents.push(document(results, { untestedWhy: results.untestedWhy }));
      else {
        const note = carried !== undefined ? ['  (queue-protocol carried from results.json: the history does not hold what the programs printed)'] : [];
        process.stdout.write(printable([oneLine(dir), ...formatQueueResults(results).map(oneLine), ...note].join('\n')) + '\n');
      }
      codes.push(outcomeExitCode(results));
      continue;
    }
    const { test, results: result } = await checkRunDir(dir, onWarning);
    if (json) documents.push(document(result));
    else
      process.stdout.write(
        printable(
          `${oneLine(dir)}\n${formatVerdicts(result.checkers, result.deciding)}\n${formatOutcome(result.outcome, result.valid, result.evidence, test.workload, result.checkers)}`,
        ) + '\n',
      );
    codes.push(outcomeExitCode(result));
  }
  if (json) process.stdout.write(printableJson(JSON.stringify(documents, null, 2)) + '\n');
  return worstOf(codes);
}

async function checkHistories(paths: string[], flags: CheckFlags & { model: ModelName }): Promise<number> {
  if (flags.init !== undefined && !modelTakesInit(flags.model)) {
    throw new UsageError(`Expected no \`--init\` with --model ${flags.model}, which has no initial value to set`);
  }
  if (!flags.partition && flags.model !== 'kv') {
    throw new UsageError(`Expected \`--no-partition\` only with --model kv, got --model ${flags.model}`);
  }
  const modelOptions = { ...(flags.init !== undefined ? { init: flags.init } : {}), partition: flags.partition };
  const model = createModel(flags.model, modelOptions);
  const files = await expandHistoryPaths(paths);
  // One file of a model that splits histories into parts (kv), with --threads: its parts go to the threads
  // (check-parts-threaded.ts).
  // Only when asked: on 2 cores it was no faster (one thread already keeps 1.3 cores busy with its garbage
  // collector, and the file is read once, on one thread) and took 35% more memory (docs/checker.md).
  const spreadParts = files.length === 1 && (flags.threads ?? 1) > 1 && model.partition !== undefined;
  const bytes = inputBytes(files);
  const threads = threadsFor(flags.threads, bytes, files.length, spreadParts);
  tuneJitForCheck(bytes);
  const options: CheckFilesOptions = {
    ...(flags.format ? { format: flags.format } : {}),
    limits: {
      ...(flags.maxHistoryMb !== undefined ? { maxHistoryBytes: flags.maxHistoryMb * MIB } : {}),
      ...(flags.maxLineMb !== undefined ? { maxLineChars: flags.maxLineMb * MIB } : {}),
    },
    ...(flags.tolerateTruncatedTail ? { tolerateTruncatedTail: true } : {}),
    ...(flags.timeoutMs !== undefined ? { timeoutMs: flags.timeoutMs } : {}),
    ...(flags.maxSearchMb !== undefined ? { maxCacheBytes: flags.maxSearchMb * 2 ** 20 } : {}),
    ...(flags.json ? {} : { onFile: (c: FileCheck) => process.stdout.write(printable(formatFileCheck(c, model)) + '\n') }),
  };
  // The threaded path is loaded only when used (start-up of a one-file check).
  const results = spreadParts
    ? [
        await (
          await import('../check/check-parts-threaded.js')
        ).checkPartsOnThreads(files[0]!, { name: flags.model, options: modelOptions }, options, threads, (used, parts) => {
          if (used < threads)
            note(`--threads ${threads} capped at ${used}: the history has ${parts} part${parts === 1 ? '' : 's'} (keys), one thread each at most`);
        }),
      ]
    : threads > 1
      ? await (await import('../check/check-files-threaded.js')).checkFilesOnThreads(files, { name: flags.model, options: modelOptions }, options, threads)
      : await checkFiles(files, model, options);
  if (flags.json)
    process.stdout.write(
      printableJson(
        JSON.stringify(
          results.map((c) => toJson(c, model)),
          null,
          2,
        ),
      ) + '\n',
    );
  else if (results.length > 1) process.stdout.write(summary(results) + '\n');
  return worstExitCode(results);
}

/**
 * Below this much input (all files together) the default is one thread: a worker loads the checker and warms up
 * its JIT again, which small histories do not pay back (measured on 2 cores: the 102 etcd logs, 0.8 MB, and 120
 * EDN histories of 100–300 ops, 3.5 MB, were slower on two threads; four 3.9 MB etcd logs 1.5x faster).
 */
const AUTO_THREADS_MIN_BYTES = 8 * MIB;

/**
 * The threads to use: --threads (or the default), capped at the cores (more workers than cores only add their
 * memory and their switching: 64 on one 10-key file took 488 MB and ran 16x slower) and at the files (a thread per
 * file at most; one file's parts are capped once they are known, check-parts-threaded.ts). A cap of what was asked
 * is said on stderr.
 */
function threadsFor(asked: number | undefined, inputBytes: number, files: number, spreadParts: boolean): number {
  const cores = availableParallelism();
  const wanted = asked ?? (inputBytes >= AUTO_THREADS_MIN_BYTES ? cores : 1);
  const capped = Math.min(wanted, cores, spreadParts ? Infinity : files);
  if (asked !== undefined && capped < asked) {
    const why = capped === cores && (spreadParts || cores <= files) ? `the cores here (${cores})` : `the files (${files}), one thread each at most`;
    note(`--threads ${asked} capped at ${capped}: ${why}`);
  }
  return Math.max(1, capped);
}

function note(text: string): void {
  process.stderr.write(printable(`note: ${text}`) + '\n');
}

/** The files' sizes together: whether workers pay off (threadsFor), and whether the check is short (tuneJitForCheck). */
function inputBytes(files: readonly string[]): number {
  let bytes = 0;
  for (const f of files) {
    try {
      bytes += statSync(f).size;
    } catch {
      // A file that cannot be read (gone, a loop of links) counts as nothing here; reading it gives its error result.
    }
  }
  return bytes;
}

export function worstExitCode(results: readonly FileCheck[]): number {
  return worstOf(
    results.map((c) => (c.error ? c.error.exitCode : c.result!.valid === false ? EXIT.invalid : c.result!.valid === 'unknown' ? EXIT.unknown : EXIT.valid)),
  );
}

/** The worst of several exit codes: an error outranks a violation, which outranks an undecided check. */
function worstOf(codes: readonly number[]): number {
  const order: number[] = [EXIT.valid, EXIT.untested, EXIT.unknown, EXIT.invalid, EXIT.badInput, EXIT.internal];
  return codes.reduce((worst, code) => (order.indexOf(code) > order.indexOf(worst) ? code : worst), EXIT.valid as number);
}

function summary(results: readonly FileCheck[]): string {
  const count = (p: (c: FileCheck) => boolean) => results.filter(p).length;
  return `${results.length} files: ${count((c) => c.result?.valid === true)} valid, ${count((c) => c.result?.valid === false)} invalid, ${count((c) => c.result?.valid === 'unknown')} unknown, ${count((c) => c.error !== undefined)} unreadable`;
}

function toJson(c: FileCheck, model: Model<unknown>): unknown {
  if (c.error) return { file: c.file, error: { code: c.error.code, message: c.error.message, hint: c.error.hint } };
  const r = c.result!;
  return {
    file: c.file,
    valid: r.valid,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.witness
      ? {
          witness: {
            partition: r.witness.partitionLabel,
            op: { ...r.witness.op, ret: nullIfInfinite(r.witness.op.ret), text: describeOp(r.witness.op, model) },
            prefix: r.witness.prefix.map((op) => ({ id: op.id, invokeIndex: op.invokeIndex, completeIndex: op.completeIndex, text: describeOp(op, model) })),
            state: r.witness.state,
            reason: r.witness.reason,
          },
        }
      : {}),
    stats: r.stats,
    warnings: c.warnings,
  };
}

function nullIfInfinite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}
