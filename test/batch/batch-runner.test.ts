/** The batch runner's policy: fatal codes (also inside a RunFailedError), failures in a row, the run directory a failed run left. */
import { describe, expect, it } from 'vitest';
import { BatchRunner, COMPARE_POLICY, SCENARIO_POLICY } from '../../src/batch/batch-runner.js';
import { FencecheckError, UsageError } from '../../core/errors.js';
import { RunFailedError } from '../../runtime/store/run-failed-error.js';

const quiet = { log: () => undefined, notice: () => undefined };
const free = async (): Promise<boolean> => false;

describe('BatchRunner', () => {
  it('returns a failed attempt with the directory a RunFailedError carries, and the cause in words', async () => {
    const batch = new BatchRunner(COMPARE_POLICY, free);
    const got = await batch.attempt(async () => {
      throw new RunFailedError('/r/redis/20261130T120000', new Error('lock client client1-1 was not ready within 30 s'));
    }, quiet);
    expect(got).toEqual({ ok: false, error: 'lock client client1-1 was not ready within 30 s', runDir: '/r/redis/20261130T120000' });
    const plain = await batch.attempt(async () => {
      throw new Error('spawn failed');
    }, quiet);
    expect(plain).toEqual({ ok: false, error: 'spawn failed', runDir: null });
  });

  it("rethrows the policy's fatal errors, also when a RunFailedError wraps them", async () => {
    const busy = new FencecheckError('cluster-busy', 'another cluster');
    const compare = new BatchRunner(COMPARE_POLICY, free);
    await expect(
      compare.attempt(async () => {
        throw new RunFailedError('/r/x', busy);
      }, quiet),
    ).rejects.toBe(busy);
    await expect(
      compare.attempt(async () => {
        throw new UsageError('Expected `--rate` to be a positive number, got `0`');
      }, quiet),
    ).rejects.toThrow(UsageError);
    // The scenarios record a run that waited in vain as an error row and go on.
    const scenarios = new BatchRunner(SCENARIO_POLICY, free);
    expect(
      await scenarios.attempt(async () => {
        throw busy;
      }, quiet),
    ).toEqual({ ok: false, error: 'another cluster', runDir: null });
  });

  it("stops after the policy's failures in a row; a success resets the count", async () => {
    const batch = new BatchRunner({ ...COMPARE_POLICY, maxErrorsInARow: 2 }, free);
    const fail = async (): Promise<never> => {
      throw new Error('no cluster');
    };
    await batch.attempt(fail, quiet);
    expect(() => batch.stopIfFailing('no cluster', 'hint')).not.toThrow();
    await batch.attempt(async () => 1, quiet);
    await batch.attempt(fail, quiet);
    expect(() => batch.stopIfFailing('no cluster', 'hint')).not.toThrow();
    await batch.attempt(fail, quiet);
    expect(() => batch.stopIfFailing('no cluster', 'see the log')).toThrow('2 runs in a row failed to run (last: no cluster)');
  });

  it("says when the cluster is busy and gives the run the policy's wait", async () => {
    const notices: string[] = [];
    const batch = new BatchRunner(SCENARIO_POLICY, async () => true);
    const got = await batch.attempt(async (busyTimeoutMs) => busyTimeoutMs, { log: () => undefined, notice: (l) => void notices.push(l) });
    expect(got).toEqual({ ok: true, value: 30 * 60_000 });
    expect(notices).toEqual(['another fencecheck process is running a cluster on this machine: waiting for it to finish (up to 30 min)']);
  });
});
