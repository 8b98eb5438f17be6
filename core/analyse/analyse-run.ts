/**
 * The analysis step of a run, pure: the workload's checkers over the
 * history, merged into the run's verdict. The runner writes its result as
 * results.json; the simulation suite and the fixture generators call the
 * same function, so a committed results.json is what the checkers say.
 */
import { checkersFor } from '../checkers/lock/registry.js';
import { runCheckers, type LockCheckResult } from '../checkers/lock/verdict.js';
import type { History } from '../history/op.js';
import { tokenKindOf, type TokenKind } from '../vocabulary.js';
import type { RunOptions } from '../plan/run-options.js';

/** `tokenKind`: a foreign client's own (its ready line), else the backend's built-in client's. */
export function analyseRun(history: History, o: Pick<RunOptions, 'workload' | 'resource' | 'backend'>, tokenKind: TokenKind = tokenKindOf(o.backend)): LockCheckResult {
  return runCheckers(checkersFor(o.workload), history, { workload: o.workload, resource: o.resource, backend: o.backend, tokenKind });
}
