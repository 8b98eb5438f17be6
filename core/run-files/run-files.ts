/**
 * The names of what a run directory holds (docs/run-directory.md), spelled
 * here once: the store, its readers, the report, the index, serve, compare and
 * `check RUN_DIR` all take them from this file. It imports nothing, so a
 * caller that only asks "is this a run directory?" loads no reader.
 */
export const RUN_FILES = {
  test: 'test.json',
  plan: 'plan.json',
  history: 'history.jsonl',
  results: 'results.json',
  report: 'report.html',
  /** Written by shrink into the final failing run: its report opens on the story. */
  shrunk: 'shrunk.json',
  /** A directory: every server's and client's log. */
  logs: 'logs',
  /** Beside the run directories of one test: a link to the newest. */
  latest: 'latest',
} as const;
