/**
 * What the command line's two entries share (main.ts, the CLI as an ES
 * module; bin.ts, the bundle's CommonJS bin that runs `check` without it):
 * ending quietly on a closed pipe, finding the command word, whether a
 * container harness may take the command, and ending once the output is written.
 */

// A reader that stops early (`fencecheck check ... | head -1`) closes the pipe: end quietly with the
// status a process killed by SIGPIPE has (128 + 13), as `yes | head -1` does, not a stack trace and 1 (INVALID).
const SIGPIPE_STATUS = 141;

/** Ends the process with SIGPIPE's status when stdout or stderr is a closed pipe. */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(SIGPIPE_STATUS);
      throw err;
    });
  }
}

/** The command's name: the program itself takes no option with a value, so the first word not starting with '-'. */
export function commandWord(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith('-'));
}

/** Whether a harness in a container may run the command instead of this process (main.ts's harnessArgs decides). */
export function harnessMayMatter(args: readonly string[]): boolean {
  return (
    args.some((a) => a.startsWith('--harness') || a.includes('containers')) ||
    process.env['FENCECHECK_HARNESS'] !== undefined ||
    process.env['FENCECHECK_HARNESS_CONTAINER'] !== undefined
  );
}

/**
 * End the process once stdout and stderr have taken everything written (a pipe's writes are asynchronous on
 * POSIX: an exit before them would lose output). Why not let it end by itself: a process that ends when its
 * event loop is empty first waits for V8's background work, optimising compiles still queued and a garbage
 * collection's concurrent marking, which a process about to end has no use for: measured 10 ms of the kv
 * corpus's 0.18 s check on 2 cores. process.exitCode (the command's) is the status.
 */
export async function exitOnceWritten(): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit();
}
