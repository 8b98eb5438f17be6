/**
 * A worker thread of the threaded checks. For checkFilesOnThreads: takes the
 * next file from the shared counter, checks it exactly as the main thread
 * would (checkFile), and posts the result, until no file is left. For
 * checkPartsOnThreads: waits for its share of one history's parts, searches
 * them and posts what it found. Loaded only as a worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { withDefaults } from '../../core/checkers/model-defaults.js';
import { createModel } from '../../core/checkers/models/registry.js';
import { checkFile } from './check-files.js';
import type { ThreadJob } from './check-files-threaded.js';
import type { ShareMessage, ShareThreadJob } from './check-parts-threaded.js';
import { toMessage } from './file-check-transfer.js';
import { decodeParts } from './parts-transfer.js';
import { searchShare } from '../../core/checkers/linearizability/shares.js';
import { performanceNow } from '../../core/checkers/linearizability/result.js';

const job = workerData as ThreadJob | ShareThreadJob;
const model = createModel(job.model.name, job.model.options);
if ('kind' in job) {
  // once: after its one share the worker has nothing to wait for, and exits.
  parentPort!.once('message', (m: ShareMessage) => {
    const started = m.startedEpochMs - performance.timeOrigin;
    parentPort!.postMessage(searchShare(withDefaults(model), decodeParts(m.parts), m.indexes, job.options, started, performanceNow, job.firstInvalidRound));
  });
} else {
  const next = new Int32Array(job.next);
  for (let i = Atomics.add(next, 0, 1); i < job.files.length; i = Atomics.add(next, 0, 1)) {
    parentPort!.postMessage({ index: i, check: toMessage(checkFile(job.files[i]!, model, job.options)) });
  }
}
