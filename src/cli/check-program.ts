/**
 * The check script's entry (check-script.ts): `fencecheck check`'s program,
 * bundled by build/bundle-cli.ts into one CommonJS file,
 * dist/bundle/lib/check-program.cjs, with commander and everything the check
 * needs inlined. One file, so one V8 code cache covers all of it.
 */
export { runProgram } from './program.js';
export { registerCheckCommand } from './check-command.js';
export { allowJitTuning } from './short-check-jit.js';
