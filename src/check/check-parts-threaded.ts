/**
 * checkPartsOnThreads: one history's parts searched on several threads (the
 * main one and workers), for a long history of many keys on several cores.
 *
 * The main thread reads and pairs the file once, splits it into parts and
 * hands each worker a share of them (parts-transfer.ts); every thread
 * searches its share and the findings combine (core/checkers/linearizability/shares.ts). The
 * workers start before the file is read, so their start-up overlaps it.
 *
 * The verdict and witness are the ones one thread gives: budgets are steps,
 * so the round a part is decided in does not depend on the thread, and of the
 * parts found invalid the first in (round, part) order is the one one thread
 * reports; a thread that finds one tells the others, which stop after that
 * round. Two things differ from one thread: each thread has its own memory
 * ceiling for its tables (--max-search-mb each, as with files on threads), so
 * a check that reaches the ceiling on one thread may be decided here; and the
 * stats count what the threads searched (more steps than one thread's).
 */
import { Worker } from 'node:worker_threads';
import { nothingObserved, searchOrder } from '../../core/checkers/linearizability/check.js';
import { performanceNow, type CheckOptions } from '../../core/checkers/linearizability/result.js';
import { combine, NO_INVALID_ROUND, searchShare, type ShareOutcome } from '../../core/checkers/linearizability/shares.js';
import { withDefaults } from '../../core/checkers/model-defaults.js';
import type { Operation } from '../../core/checkers/operation.js';
import { createModel, type ModelName, type ModelOptions } from '../../core/checkers/models/registry.js';
import { FencecheckError } from '../../core/errors.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import { readChecked, searchOptionsOf, type CheckFilesOptions, type FileCheck } from './check-files.js';
import { encodeParts, type EncodedParts } from './parts-transfer.js';

/** What a worker starts with; its share of the parts follows as a ShareMessage. */
export interface ShareThreadJob {
  kind: 'share';
  model: { name: ModelName; options: ModelOptions };
  /** Without a clock: a function does not cross to a worker, which reads its own performance.now. */
  options: Omit<CheckOptions, 'now'>;
  firstInvalidRound: SharedArrayBuffer;
}

export interface ShareMessage {
  /** The parts' indexes among all parts, ascending. */
  indexes: number[];
  parts: EncodedParts;
  /** When the search started (ms since the epoch): the deadline is the same instant on every thread. */
  startedEpochMs: number;
}

/**
 * `threads` is an upper bound: a history of fewer parts uses one thread per part (a thread with no part would only
 * cost its start-up and memory); `onThreads` is told how many were used once the parts are known.
 */
export async function checkPartsOnThreads(
  file: string,
  model: { name: ModelName; options: ModelOptions },
  opts: CheckFilesOptions,
  threads: number,
  onThreads?: (used: number, parts: number) => void,
): Promise<FileCheck> {
  const { onFile, ...options } = opts;
  const t0 = performance.now();
  const firstInvalidRound = new SharedArrayBuffer(4);
  new Int32Array(firstInvalidRound)[0] = NO_INVALID_ROUND;
  const searchOptions = searchOptionsOf(options);
  const { workers, replies } = startShareWorkers({ kind: 'share', model, options: searchOptions, firstInvalidRound }, threads - 1);
  try {
    const filled = withDefaults(createModel(model.name, model.options));
    const warnings: HistoryWarning[] = [];
    let read: ReturnType<typeof readChecked>;
    try {
      read = readChecked(file, filled, options, warnings);
    } catch (err) {
      if (!(err instanceof FencecheckError)) throw err;
      return delivered(onFile, { file, error: err, warnings, parseMs: performance.now() - t0 });
    }
    const parseMs = performance.now() - t0;
    const operations = read.operations.length;
    let parts: Operation[][] = searchOrder(filled.partition(read.operations));
    // The deadline and the time reported count from here, as on one thread (checkFile starts them after the read).
    const searchStarted = performance.now();
    const blind = nothingObserved(parts.flat(), parts.length, searchStarted, performanceNow);
    if (blind !== null) return delivered(onFile, { file, result: blind, warnings, parseMs });
    const used = Math.max(1, Math.min(threads, parts.length));
    onThreads?.(used, parts.length);
    // Started before the parts were known: the ones without a part go now.
    for (const idle of workers.splice(used - 1)) {
      idle.removeAllListeners();
      void idle.terminate();
    }
    replies.splice(used - 1);
    const shares = assignShares(
      parts.map((p) => p.length),
      used,
    );
    sendShares(workers, shares, parts, performance.timeOrigin + searchStarted);
    const partitions = parts.length;
    const own = shares[0]!;
    const ownParts = own.map((p) => parts[p]!);
    // The workers' parts are theirs now: let this thread's copies go.
    parts = [];
    const mine = searchShare(filled, ownParts, own, searchOptions, searchStarted, performanceNow, firstInvalidRound);
    const outcomes = [mine, ...(await Promise.all(replies))];
    const result = combine(outcomes, operations, partitions, searchOptions.timeoutMs, performance.now() - searchStarted);
    return delivered(onFile, { file, result, warnings, parseMs });
  } finally {
    for (const w of workers) {
      w.removeAllListeners();
      void w.terminate();
    }
  }
}

/** The workers start before the file is read (their start-up overlaps it); each reply is its share's outcome. */
function startShareWorkers(job: ShareThreadJob, count: number): { workers: Worker[]; replies: Promise<ShareOutcome>[] } {
  const workers = Array.from({ length: count }, () => new Worker(new URL('./check-worker.js', import.meta.url), { workerData: job }));
  const replies = workers.map(
    (worker) =>
      new Promise<ShareOutcome>((resolve, reject) => {
        worker.once('message', resolve);
        // A worker that dies is a bug (bad input is found by the main thread first): the check fails, exit 255.
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`check worker exited with code ${code} before its result`)));
      }),
  );
  // When the main thread returns early (bad input), nobody awaits the replies: a failing worker must not be an unhandled rejection.
  for (const r of replies) r.catch(() => undefined);
  return { workers, replies };
}

/** Worker w gets share w + 1 (share 0 is the main thread's), its parts' buffers transferred, not copied. */
function sendShares(workers: readonly Worker[], shares: readonly number[][], parts: readonly Operation[][], startedEpochMs: number): void {
  workers.forEach((worker, w) => {
    const indexes = shares[w + 1]!;
    const message: ShareMessage = { indexes, parts: encodeParts(indexes.map((p) => parts[p]!)), startedEpochMs };
    worker.postMessage(message, [message.parts.numbers.buffer as ArrayBuffer]);
  });
}

function delivered(onFile: CheckFilesOptions['onFile'], check: FileCheck): FileCheck {
  onFile?.(check);
  return check;
}

/**
 * Parts to threads, balanced by operation count: the largest part first, each
 * to the thread with the fewest ops so far (ties to the lowest thread). Each
 * share's indexes ascending: the order one thread searches them in.
 */
export function assignShares(sizes: readonly number[], threads: number): number[][] {
  const shares: number[][] = Array.from({ length: threads }, () => []);
  const load = new Array<number>(threads).fill(0);
  const bySize = sizes.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  for (const p of bySize) {
    let least = 0;
    for (let t = 1; t < threads; t++) if (load[t]! < load[least]!) least = t;
    shares[least]!.push(p);
    load[least]! += sizes[p]!;
  }
  return shares.map((s) => s.sort((a, b) => a - b));
}
