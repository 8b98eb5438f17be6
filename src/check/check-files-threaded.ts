/**
 * checkFilesOnThreads: checkFiles with the files spread over worker threads
 * (and the main thread), for many files on several cores.
 *
 * Each file is checked whole by one thread with the same code and options as
 * on one thread, and the search counts its budgets in steps, not time, so
 * verdicts and witnesses are the same as checkFiles' (only the timings
 * differ; a --timeout-ms deadline is per file, as on one thread). Threads take
 * the next file from one shared counter, so a hard file does not hold up the
 * easy ones behind it; results are handed to `onFile` in file order. Every
 * thread has its own memory ceiling for its search (maxCacheBytes per file, as
 * on one thread), so N threads may use up to N times the memory.
 */
import { Worker } from 'node:worker_threads';
import { createModel, type ModelName, type ModelOptions } from '../../core/checkers/models/registry.js';
import { checkFile, type CheckFilesOptions, type FileCheck } from './check-files.js';
import { fromMessage, type FileCheckMessage } from './file-check-transfer.js';

/** What a worker is given: the files, the shared counter of the next file, the model by name, the options. */
export interface ThreadJob {
  files: readonly string[];
  next: SharedArrayBuffer;
  model: { name: ModelName; options: ModelOptions };
  options: Omit<CheckFilesOptions, 'onFile'>;
}

export async function checkFilesOnThreads(
  files: readonly string[],
  model: { name: ModelName; options: ModelOptions },
  opts: CheckFilesOptions,
  threads: number,
): Promise<FileCheck[]> {
  const { onFile, ...options } = opts;
  const job: ThreadJob = { files, next: new SharedArrayBuffer(4), model, options };
  const next = new Int32Array(job.next);
  const results: (FileCheck | undefined)[] = new Array(files.length);
  let delivered = 0;
  let allDelivered!: () => void;
  let failed!: (err: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => ((allDelivered = resolve), (failed = reject)));
  const deliver = (index: number, check: FileCheck): void => {
    results[index] = check;
    for (; delivered < files.length && results[delivered] !== undefined; delivered++) onFile?.(results[delivered]!);
    if (delivered === files.length) allDelivered();
  };
  // Started first: a worker takes tens of ms to load, during which the main thread already checks files.
  const workers = Array.from({ length: Math.min(threads, files.length) - 1 }, () => {
    const worker = new Worker(new URL('./check-worker.js', import.meta.url), { workerData: job });
    worker.on('message', (m: { index: number; check: FileCheckMessage }) => {
      // onFile prints: a failure there (stdout closed) must reach the caller as on one thread, not be uncaught here.
      try {
        deliver(m.index, fromMessage(m.check));
      } catch (err) {
        failed(err);
      }
    });
    // A worker that dies is a bug (checkFile turns bad input into results): fail the whole check, exit 255.
    worker.on('error', failed);
    worker.on('exit', (code) => code !== 0 && failed(new Error(`check worker exited with code ${code}`)));
    return worker;
  });
  const own = createModel(model.name, model.options);
  try {
    for (let i = Atomics.add(next, 0, 1); i < files.length; i = Atomics.add(next, 0, 1)) {
      deliver(i, checkFile(files[i]!, own, options));
      // Let the workers' results in between files (they are printed in file order as soon as they can be).
      await new Promise((resolve) => setImmediate(resolve));
    }
    await finished;
  } finally {
    // A worker still loading when the last result came in has nothing left to do: do not wait for it.
    for (const w of workers) {
      w.removeAllListeners('exit');
      void w.terminate();
    }
  }
  return results as FileCheck[];
}
