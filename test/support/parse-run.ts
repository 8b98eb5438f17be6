/**
 * `fencecheck run` arguments parsed by the real CLI (the options captured
 * instead of run), and a command line split as a POSIX shell splits it: what
 * the replay round-trip tests (run options, run plans) read replays with.
 */
import { Command } from 'commander';
import { registerRunCommand, runOptionsOf, type CliFlags } from '../../src/cli/run-command.js';
import type { RunOptions } from '../../core/plan/run-options.js';

/** The words of a command line as a POSIX shell splits it (the subset shellQuote writes: bare words and '...' with '\\'' escapes). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const [, word] of line.matchAll(/((?:[^\s'\\]+|'[^']*'|\\.)+)/g)) {
    words.push(
      word!.replace(
        /'([^']*)'|\\(.)|([^'\\]+)/g,
        (_, quoted: string | undefined, escaped: string | undefined, bare: string | undefined) => quoted ?? escaped ?? bare ?? '',
      ),
    );
  }
  return words;
}

/** Parse `fencecheck run ...` arguments with the real CLI, capturing the options instead of running. */
export function parseRun(args: string[]): RunOptions {
  const program = new Command().exitOverride();
  registerRunCommand(program);
  let parsed: RunOptions | undefined;
  program.commands
    .find((c) => c.name() === 'run')!
    .exitOverride()
    .action((flags: CliFlags) => {
      parsed = runOptionsOf(flags);
    });
  program.parse(args, { from: 'user' });
  return parsed!;
}
