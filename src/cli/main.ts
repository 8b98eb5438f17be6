#!/usr/bin/env node
/**
 * The fencecheck command line: a thin layer over the library. Each command
 * lives in its own file, parses its flags, calls one library function, prints,
 * and sets `process.exitCode`. Library code never calls `process.exit`.
 */
import { Command, CommanderError } from 'commander';
import { EXIT, FencecheckError, formatError } from '../errors.js';
import { registerCheckCommand } from './check-command.js';
import { registerCompareCommand } from './compare-command.js';
import { registerDoctorCommand } from './doctor-command.js';
import { registerDownCommand } from './down-command.js';
import { registerReportCommand } from './report-command.js';
import { registerRunCommand } from './run-command.js';
import { registerScenarioCommand } from './scenario-command.js';
import { registerSetupCommand } from './setup-command.js';
import { registerUpCommand } from './up-command.js';
import { printable } from './printable.js';

// A reader that stops early (`fencecheck check ... | head -1`) closes the pipe: end quietly with the
// status a process killed by SIGPIPE has (128 + 13), as `yes | head -1` does, not a stack trace and 1 (INVALID).
const SIGPIPE_STATUS = 141;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(SIGPIPE_STATUS);
    throw err;
  });
}

const program = new Command();
program
  .name('fencecheck')
  .description('Does this distributed lock actually protect my data? Real clusters, real faults, checked histories.')
  .version('0.1.0')
  .showHelpAfterError()
  // Commander's own usage errors exit 254 like ours.
  .exitOverride();

registerRunCommand(program);
registerCheckCommand(program);
registerCompareCommand(program);
registerScenarioCommand(program);
registerUpCommand(program);
registerDownCommand(program);
registerDoctorCommand(program);
registerSetupCommand(program);
registerReportCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = exitCodeFor(err);
}

function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    // --help and --version end with code 0 ("commander.helpDisplayed", "commander.version").
    return err.exitCode === 0 ? 0 : EXIT.badInput;
  }
  if (err instanceof FencecheckError) {
    // Messages quote the input (a file name, the text at a parse error): printed as data, never as terminal controls.
    process.stderr.write(printable(formatError(err)) + '\n');
    return err.exitCode;
  }
  process.stderr.write(printable(`fencecheck: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`) + '\n');
  process.stderr.write('Hint: this is a bug in fencecheck; please report it with the command line above.\n');
  return EXIT.internal;
}
