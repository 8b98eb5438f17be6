/**
 * The commander program and how its errors become exit codes: given the
 * command registrations a command line needs (main.ts picks them), parse the
 * arguments and run the command. Its own module so the check script
 * (check-program.ts, code-cached) runs the very same program as every other
 * command does.
 */
import { Command, CommanderError } from 'commander';
import { EXIT, FencecheckError, formatError } from '../../core/errors.js';
import { printable } from '../../core/printable.js';
import { refuseRepeatedFlags } from './repeated-flags.js';

export type Register = (program: Command) => void;

// The commands that start a cluster refuse a bad FENCECHECK_SUBNET before they make anything (a run directory).
const CLUSTER_COMMANDS = new Set(['run', 'compare', 'client-check', 'scenario', 'hunt', 'shrink', 'up']);

/** Parse `args` (the user's words) with these commands registered and run the command; an error's exit code is set here, a command sets its own. */
export async function runProgram(args: readonly string[], registrations: readonly Register[]): Promise<void> {
  const program = new Command();
  program
    .name('fencecheck')
    .description('Does this distributed lock actually protect my data? Real clusters, real faults, checked histories.')
    .version('0.1.0')
    .showHelpAfterError()
    // Commander's own usage errors exit 254 like ours.
    .exitOverride();
  program.hook('preAction', async (_program, action) => {
    // The words after the command's own name (a subcommand's after its parent's): where its flags are.
    refuseRepeatedFlags(action, args);
    const top = action.parent === program ? action : action.parent;
    if (top !== null && CLUSTER_COMMANDS.has(top.name())) (await import('../../runtime/cluster/chosen-subnet.js')).chosenSubnet(undefined);
  });
  try {
    for (const register of registrations) register(program);
    await program.parseAsync([...args], { from: 'user' });
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
}

/** An error's exit code (254 usage, 255 internal), its message printed. */
export function exitCodeFor(err: unknown): number {
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
