/**
 * A worker thread of checkFilesOnThreads: takes the next file from the shared
 * counter, checks it exactly as the main thread would (checkFile), and posts
 * the result, until no file is left. Loaded only as a worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createModel } from '../../checkers/models/registry.js';
import { checkFile } from './check-files.js';
import type { ThreadJob } from './check-files-threaded.js';
import { toMessage } from './file-check-transfer.js';

const job = workerData as ThreadJob;
const model = createModel(job.model.name, job.model.options);
const next = new Int32Array(job.next);
for (let i = Atomics.add(next, 0, 1); i < job.files.length; i = Atomics.add(next, 0, 1)) {
  parentPort!.postMessage({ index: i, check: toMessage(checkFile(job.files[i]!, model, job.options)) });
}
