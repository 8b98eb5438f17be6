/**
 * The one reader of a run directory's history outside the store: the store
 * (runtime/store) owns every other run file, but a history's parser is
 * src/history's, which runtime may not import. It reads only from inside the
 * run directory, with the store's confinement (confined-path.ts).
 */
import { join } from 'node:path';
import { ParseError } from '../../core/errors.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import type { History } from '../../core/history/op.js';
import { assertInside, assertOpenedInside, realDir } from '../../runtime/store/confined-path.js';
import { HISTORY_FILE } from '../../runtime/store/run-store.js';
import { validatedBatches } from './read-history.js';

/**
 * A run's history.jsonl, read synchronously (the reader is synchronous underneath: regular files only, bounded),
 * tolerating a last line cut by a kill (`strict`: refusing it, as a hunt reads the tries it ran to their end). A parse error says a run's history is JSON Lines, not "as --format said".
 * Only from inside the run directory, as every run file (runtime/store/confined-path.ts): a history linked out of
 * it is refused before it is opened and, should a link be swapped in meanwhile, on the descriptor opened.
 */
export function readRunHistory(dir: string, onWarning?: (w: HistoryWarning) => void, o: { strict?: boolean } = {}): History {
  const path = join(dir, HISTORY_FILE);
  const root = realDir(dir);
  assertInside(path, root);
  const history: History = [];
  const onOpen = (fd: number): void => assertOpenedInside(fd, path, root);
  try {
    for (const batch of validatedBatches(path, { format: 'jsonl', tolerateTruncatedTail: o.strict !== true, onOpen, ...(onWarning ? { onWarning } : {}) }))
      for (const op of batch) history.push(op);
  } catch (err) {
    if (!(err instanceof ParseError) || err.hint === undefined) throw err;
    throw new ParseError(
      { file: err.file, line: err.line, column: err.column },
      err.expected,
      err.found,
      err.hint.replace('(as --format said)', "(a run directory's history is always JSON Lines)"),
    );
  }
  return history;
}
