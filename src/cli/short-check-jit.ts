/**
 * How V8 compiles a short `fencecheck check`: its budget for optimising
 * (TurboFan) raised sixteenfold when all the input is small, so that only the
 * code that really runs long is optimised.
 *
 * Why: a check of the public corpus is over in a few hundred ms, and V8
 * optimises a function after a fixed amount of its bytecode has run. In that
 * time it optimised dozens of functions (the readers, the pairing, the
 * search, the model), a compile of tens of ms of CPU each on the second core,
 * most of them finished too late to pay back and some thrown away again
 * (deoptimised), while the same core was wanted by the garbage collector and,
 * on a shared machine, by everything else. Measured on the 2-core machine
 * (load 5 to 7), interleaved, medians of 11 to 15: the 6 kv files 0.25 s of
 * wall time and 0.25 s of CPU with V8's budget, 0.17 s and 0.17 s with 16
 * times it; the 102 etcd logs 0.32 and 0.31 s, 0.31 and 0.27 s. Above a few
 * MiB the default wins again (a 100,000-op etcd log, 7.8 MB: 0.76 s with it,
 * 0.91 s with 16 times it), as the hot loops then run long enough to repay
 * their compiles many times over.
 *
 * Only the check script's own process tunes (check-script.ts allows it): V8's
 * flags are the whole process's, so a test or the build's code-cache training
 * run, which check in-process, keep V8's defaults (the code cache records the
 * flags it was made under, and V8 refuses it under others: the flag is set
 * after the script is compiled, and never where the cache is made).
 */
import { setFlagsFromString } from 'node:v8';
import { MIB } from '../../core/history/read-limits.js';

/** All files together up to this size make a short check. */
export const SHORT_CHECK_BYTES = 2 * MIB;

/** Bytecode run per tier-up tick: 16 times V8 11's default of 67,584 (Node 20). */
const SHORT_CHECK_INTERRUPT_BUDGET = 16 * 67_584;

let allowed = false;

/** Lets this process's checks tune V8 (the check script's own process only: see the module doc). */
export function allowJitTuning(): void {
  allowed = true;
}

/** For a check of `inputBytes` in all: raises V8's budget when the check is short and tuning is allowed; whether it did. */
export function tuneJitForCheck(inputBytes: number): boolean {
  if (!allowed || inputBytes > SHORT_CHECK_BYTES) return false;
  setFlagsFromString(`--interrupt-budget=${SHORT_CHECK_INTERRUPT_BUDGET}`);
  return true;
}
