#!/usr/bin/env node
/**
 * The fencecheck command line: a thin layer over the library. Each command
 * lives in its own file, parses its flags, calls one library function, prints,
 * and sets `process.exitCode`. Library code never calls `process.exit`.
 *
 * Start-up: a command's module (and everything it imports: clusters, execa,
 * pg, the checkers...) is loaded only when that command runs. Loading all of
 * them made `fencecheck --version` cost 3–5× a bare `node -e 0`, almost all of
 * it in the ES module loader. Help, `help CMD` and unknown commands still load
 * every command so the listing and commander's suggestions stay complete.
 * `check`, whose start-up is most of a small check's time, runs from one
 * script with a V8 code cache instead (check-script.ts).
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheckScript } from './check-script.js';
import { commandWord, endQuietlyOnClosedPipe, exitOnceWritten, harnessMayMatter } from './entry.js';
import type { Register } from './program.js';

endQuietlyOnClosedPipe();

/** Command name → its module's register function; one module may register several names. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  run: async () => (await import('./run-command.js')).registerRunCommand,
  check: async () => (await import('./check-command.js')).registerCheckCommand,
  compare: async () => (await import('./compare-command.js')).registerCompareCommand,
  'client-check': async () => (await import('./client-check-command.js')).registerClientCheckCommand,
  scenario: async () => (await import('./scenario-command.js')).registerScenarioCommand,
  hunt: async () => (await import('./hunt-command.js')).registerHuntCommand,
  shrink: async () => (await import('./shrink-command.js')).registerShrinkCommand,
  up: async () => (await import('./up-command.js')).registerUpCommand,
  down: async () => (await import('./down-command.js')).registerDownCommand,
  doctor: async () => (await import('./doctor-command.js')).registerDoctorCommand,
  setup: async () => (await import('./setup-command.js')).registerSetupCommand,
  images: async () => (await import('./images-command.js')).registerImagesCommand,
  report: async () => (await import('./report-command.js')).registerReportCommand,
  serve: async () => (await import('./report-command.js')).registerReportCommand,
};

/** The registration order of the full listing (`fencecheck --help`). */
const LISTING_ORDER = ['run', 'check', 'compare', 'client-check', 'scenario', 'hunt', 'shrink', 'up', 'down', 'doctor', 'setup', 'images', 'report'];

try {
  const args = await harnessArgs(process.argv.slice(2));
  // `check` runs from its code-cached script when the bundle has one (check-script.ts); anything else, or a
  // build without the script (the compiled modules), through the program's module.
  if (args !== undefined && commandWord(args) === 'check' && (await runCheckScript(dirname(fileURLToPath(import.meta.url)), args))) await exitOnceWritten();
  else if (args !== undefined) {
    const [{ runProgram }, registrations] = await Promise.all([import('./program.js'), registrationsFor(args)]);
    await runProgram(args, registrations);
  }
} catch (err) {
  process.exitCode = (await import('./program.js')).exitCodeFor(err);
}

/**
 * The arguments this process parses, without `--harness`; undefined when a harness in a container ran
 * the command instead (its exit code is set). The containers' harness code loads only when it may matter.
 */
async function harnessArgs(args: string[]): Promise<string[] | undefined> {
  if (!harnessMayMatter(args)) return args;
  const { harnessRedirect } = await import('../../runtime/cluster/containers/harness-redirect.js');
  const r = await harnessRedirect(args, (line) => process.stderr.write(`fencecheck: ${line}\n`));
  if ('args' in r) return r.args;
  process.exitCode = r.exitCode;
  return undefined;
}

/**
 * The commands this command line needs. The program itself takes no option
 * with a value, so the first word not starting with '-' is the command.
 * `--version` alone needs none; anything else without a known command word
 * (no arguments, --help, `help`, a typo) gets them all.
 */
async function registrationsFor(args: readonly string[]): Promise<Register[]> {
  const word = commandWord(args);
  if (word !== undefined && Object.hasOwn(COMMANDS, word)) return [await COMMANDS[word]!()];
  if (word === undefined && args.length > 0 && args.every((a) => a === '--version' || a === '-V')) return [];
  return Promise.all(LISTING_ORDER.map((name) => COMMANDS[name]!()));
}
