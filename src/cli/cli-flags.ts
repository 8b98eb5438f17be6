/**
 * `fencecheck run`'s flags as commander parses them: their own file, so that
 * run-queue-command.ts (which reads them) and run-command.ts (which calls it)
 * do not import each other.
 */
import type { RunOptions } from '../../core/plan/run-options.js';

/** The raw `--nemesis` items: `fault` or `fault@event`. */
export type CliFlags = Pick<RunOptions, 'backend' | 'resource' | 'workload' | 'seed'> & {
  nemesis: string[];
  results: string;
  busyTimeoutMs: number;
  plan?: boolean;
  [sharedFlag: string]: unknown;
};
