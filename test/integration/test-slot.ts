/**
 * The slot (core/cluster/slots.ts) an integration file's clusters run in. The files of the `integration` project
 * run two at once (vitest.config.ts), each in the slot of its vitest worker (`VITEST_POOL_ID` 1 → slot 0, 2 → slot
 * 1: two files that run at once never have the same pool id); the files of `integration-alone` (a `down` of every
 * slot, fixed slots, the CLI choosing free slots, Docker, names written out) run one at a time after them, in
 * worker 1, so slot 0, where such a file's fixed names live.
 */
import { MAX_SLOTS } from '../../core/cluster/slots.js';

function slotOfWorker(poolId: string | undefined): number {
  const id = Number(poolId ?? '1');
  if (!Number.isInteger(id) || id < 1 || id > MAX_SLOTS)
    throw new Error(`VITEST_POOL_ID ${poolId} gives no slot: the integration files run at most ${MAX_SLOTS} at once`);
  return id - 1;
}

export const TEST_SLOT = slotOfWorker(process.env['VITEST_POOL_ID']);
