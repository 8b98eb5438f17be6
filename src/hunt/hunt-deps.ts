/**
 * The I/O a hunt (and a shrink) is given: its own file, so that what a hunt's
 * parts need of it (confirm-find.ts) does not import run-hunt.ts, which
 * imports them.
 */
import type { Outcome } from '../../core/checkers/lock/evidence.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import type { RunHooks } from '../run/run-lock-test.js';
import type { NearMiss } from './near-miss.js';
import type { DataVerdicts } from './hunt-verdict.js';

/** The I/O of a hunt, injected: the real ones run tries on the cluster (real-hunt-deps.ts). */
export interface HuntDeps {
  /** One run on `lane`'s cluster (0 when absent; a lane is a warm cluster in a slot of its own, below `lanes`). */
  runTry(options: RunOptions, hooks: RunHooks, lane?: number): Promise<{ runDir: string; replay: string }>;
  /** How many lanes runTry has (`--parallel`; 1 when absent): tries, re-runs and candidates run on that many clusters at once. */
  lanes?: number;
  /** `data`: which data checkers broke and which held (absent where the reader cannot tell, as in a simulated world's tests). */
  readTry(runDir: string, options: RunOptions): Promise<{ outcome: Outcome; miss: NearMiss; data?: DataVerdicts }>;
  now(): number;
  log(line: string): void;
  stopped(): boolean;
  /** Ends what the tries shared (the warm cluster), once the hunt or shrink is over. */
  close?(): Promise<void>;
  /** Marks a shrink's final failing run as the shrunk one (its report then opens on the story). */
  markShrunk?(runDir: string, summary: Record<string, unknown>): Promise<void>;
}
