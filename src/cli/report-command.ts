/**
 * `fencecheck report RUN_DIR`: write a run's self-contained report.html.
 * `fencecheck report --index results/`: write results/index.html (and any
 * missing or stale reports). `fencecheck serve [--port N]`: serve the results
 * directory on 127.0.0.1, reports made on request, until interrupted.
 */
import type { Command } from 'commander';
import { queueRunIfDir } from '../../runtime/store/read-run-files.js';
import { EXIT, UsageError } from '../../core/errors.js';
import { FLAG_RANGES, numberFlag, withRange } from './parse-options.js';
import { readRunDir, type RunDir } from '../report/read-run-dir.js';
import { outcomeExitCode } from '../../core/run-files/stored-outcome.js';
import { formatStoredOutcome } from '../check/format-outcome.js';
import { serveResults } from '../report/serve-results.js';
import { writeRunIndex } from '../report/write-run-index.js';
import { writeRunReport } from '../report/write-run-report.js';
import { oneLine } from '../../core/printable.js';

const VERDICT = { true: 'VALID', false: 'INVALID', unknown: 'UNKNOWN' } as const;

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('Write the HTML report of a run directory, or with --index an index of every run under a results directory.')
    .argument('[run-dir]', 'a run directory (results/<test>/<timestamp>)')
    .option('--index <results-dir>', 'write <results-dir>/index.html listing every run, comparison and debate')
    .option('--write-reports', 'with --index: also write the reports that are missing or stale (into every run directory found)')
    .addHelpText(
      'after',
      `
Exit codes (RUN_DIR, as \`check RUN_DIR\`): 0 safe, 1 invalid, 2 unknown or not checked yet, 3 untested
(valid, but no fault struck or the lock never failed), 254 bad input (a results.json that disagrees with
the history is refused), 255 the tool failed. --index exits 0 unless it cannot write the index.
Examples:
  fencecheck report results/etcd-fence-lock-counter/latest
  fencecheck report --index results/ --write-reports`,
    )
    .action(async (runDir: string | undefined, flags: { index?: string; writeReports?: boolean }) => {
      if ((runDir === undefined) === (flags.index === undefined)) {
        throw new UsageError(
          'Expected either `RUN_DIR` or `--index <results-dir>`, not both or neither',
          'fencecheck report results/<test>/latest, or fencecheck report --index results/',
        );
      }
      if (flags.writeReports && flags.index === undefined) throw new UsageError('Expected `--write-reports` only with `--index`');
      if (flags.index !== undefined) return printIndex(flags.index, flags.writeReports === true);
      // A queue run's directory: its own report, from its history judged again (src/report/write-queue-report.ts).
      const queueRun = queueRunIfDir(runDir!);
      if (queueRun !== null) {
        const { writeQueueReport } = await import('../report/write-queue-report.js');
        const { formatQueueResults } = await import('../check/format-queue-results.js');
        const { path, results } = writeQueueReport(runDir!, queueRun);
        process.stdout.write([`report: ${path}`, ...formatQueueResults(results)].map(oneLine).join('\n') + '\n');
        process.exitCode = outcomeExitCode(results);
        return;
      }
      // Read once: the verdict recomputed from the history (a results.json that disagrees is refused, 254).
      const run = await readRunDir(runDir!);
      const path = await writeRunReport(runDir!, run);
      process.stdout.write(`report: ${oneLine(path)}\n${verdictLines(run)}`);
      // As `check RUN_DIR`: 1 invalid, 2 unknown or not checked yet, 3 untested, 0 safe.
      process.exitCode = run.results === null ? EXIT.unknown : outcomeExitCode(run.results);
    });

  program
    .command('serve')
    .description('Serve the results directory (index of runs and their reports) on 127.0.0.1 until interrupted.')
    .option('--port <n>', withRange('TCP port on 127.0.0.1', FLAG_RANGES['--port']), numberFlag('--port'), 8080)
    .option('--dir <results-dir>', 'the results directory', 'results')
    .action(async (flags: { port: number; dir: string }) => {
      const server = await serveResults({ dir: flags.dir, port: flags.port });
      process.stdout.write(`serving ${flags.dir} at ${server.url} (localhost only; Ctrl-C to stop)\n`);
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      await server.close();
    });
}

async function printIndex(resultsDir: string, writeReports: boolean): Promise<void> {
  const index = await writeRunIndex(resultsDir, { writeReports });
  const missing = index.runs.filter((r) => r.hasHistory && !r.hasReport).length;
  const lines = [
    `index: ${index.path} (${index.runs.length} run${index.runs.length === 1 ? '' : 's'}, ${index.pages.length} comparison/debate page${index.pages.length === 1 ? '' : 's'}, ${index.written.length} report${index.written.length === 1 ? '' : 's'} written)`,
  ];
  if (!writeReports && missing > 0) lines.push(`${missing} run${missing === 1 ? ' has' : 's have'} no report yet: add --write-reports to write them`);
  for (const f of index.failed) lines.push(`no report for ${f.path}: ${f.error}`);
  process.stdout.write(lines.map(oneLine).join('\n') + '\n');
}

/** The verdict and how to reproduce it, as every verdict is printed. */
function verdictLines({ results, test }: RunDir): string {
  const lines = [
    results === null
      ? 'not checked yet (no results.json)'
      : `${VERDICT[String(results.valid) as keyof typeof VERDICT]}: ${results.checkers.map((c) => `${c.checker} ${c.valid === true ? 'valid' : c.valid === false ? 'invalid' : 'unknown'}`).join(', ')}`,
  ];
  if (results !== null && test !== null) lines.push(formatStoredOutcome(results, test.workload));
  if (typeof test?.replay === 'string') lines.push(`replay: ${test.replay}`);
  // test.json and results.json are input: a newline in a field (a forged `replay`) must not print a line.
  return lines.map(oneLine).join('\n') + '\n';
}
