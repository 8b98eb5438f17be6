/**
 * How a maintainer's entry point beside the CLI (npm run libraries, npm run queues) ends:
 * Commander has printed its own message or the help (exit 0, or 254 for bad flags); our
 * errors are printed with their hint and their exit code; anything else is a bug and is
 * left to show (255).
 */
import { CommanderError, type Command } from 'commander';
import { EXIT, FencecheckError, formatError } from '../../core/errors.js';

export async function runMaintainerEntry<F>(program: Command, main: (flags: F) => void | Promise<void>): Promise<void> {
  try {
    program.parse(process.argv);
    await main(program.opts<F & Record<string, unknown>>());
  } catch (err) {
    if (err instanceof CommanderError) process.exitCode = err.exitCode === 0 ? 0 : EXIT.badInput;
    else if (err instanceof FencecheckError) {
      process.stderr.write(`${formatError(err)}\n`);
      process.exitCode = err.exitCode;
    } else throw err;
  }
}
