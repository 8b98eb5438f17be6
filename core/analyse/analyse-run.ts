/**
 * The analysis step of a run, pure: the workload's checkers over the
 * history, merged into the run's verdict. The runner writes its result as
 * results.json; the simulation suite and the fixture generators call the
 * same function, so a committed results.json is what the checkers say.
 */
import { checkersFor } from '../checkers/lock/registry.js';
import { runCheckers, type LockCheckResult } from '../checkers/lock/verdict.js';
import type { History } from '../history/op.js';
import { tokenKindOf } from '../vocabulary.js';
import type { RunOptions } from '../plan/run-options.js';
import type { ClientTokenKind } from '../client-protocol.js';

/**
 * `clientToken`: a foreign client's own kind (its ready line; 'none' has no order to check, as 'unique'),
 * else the backend's built-in client's. `now`: the clock the searches' deadlines read (a simulation passes its
 * own, so a run of it decides the same way however loaded the machine is); by default the process's.
 */
export function analyseRun(
  history: History,
  o: Pick<RunOptions, 'workload' | 'resource' | 'backend'>,
  clientToken?: ClientTokenKind,
  now?: () => number,
): LockCheckResult {
  const tokenKind = clientToken === undefined ? tokenKindOf(o.backend) : clientToken === 'monotonic' ? 'monotonic' : 'unique';
  return runCheckers(checkersFor(o.workload), history, {
    workload: o.workload,
    resource: o.resource,
    backend: o.backend,
    tokenKind,
    ...(clientToken !== undefined ? { clientToken } : {}),
    ...(now !== undefined ? { now } : {}),
  });
}
