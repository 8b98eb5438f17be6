/**
 * Which history format a file holds, decided by its first non-blank line and,
 * where that is ambiguous or absent, by its extension.
 */
import { extname } from 'node:path';
import { ParseError } from '../../core/errors.js';

export type HistoryFormat = 'jsonl' | 'edn' | 'porcupine-etcd' | 'porcupine-kv';

export const HISTORY_FORMATS: readonly HistoryFormat[] = ['jsonl', 'edn', 'porcupine-etcd', 'porcupine-kv'];

/** How many bytes `detectFormat` wants to see. */
export const DETECT_BYTES = 4096;

const BY_EXTENSION = new Map<string, HistoryFormat>([
  ['.jsonl', 'jsonl'],
  ['.ndjson', 'jsonl'],
  ['.edn', 'edn'],
  ['.log', 'porcupine-etcd'],
]);

const ETCD_OP_LINE = /INFO\s+jepsen\.util\s+-\s+/;
const LOG_LINE = /\b(TRACE|DEBUG|INFO|WARN|ERROR)\b/;

/** The format of a history from its path and its first bytes (a few KiB are enough). */
export function detectFormat(path: string, firstBytes: string | Uint8Array): HistoryFormat {
  let text = typeof firstBytes === 'string' ? firstBytes : new TextDecoder().decode(firstBytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const ext = BY_EXTENSION.get(extname(path).toLowerCase());
  const lines = text.split('\n');
  const lineNo = lines.findIndex((l) => l.trim() !== '');
  // An empty file is an empty history in every format.
  if (lineNo < 0) return ext ?? 'jsonl';
  const raw = lines[lineNo] as string;
  const first = raw.trim();
  // `{"` could start an EDN map with string keys too; a .edn extension decides.
  if (/^\{\s*"/.test(first)) return ext === 'edn' ? 'edn' : 'jsonl';
  // A Jepsen log may open with other log lines; any jepsen.util op line near the top decides.
  if (ETCD_OP_LINE.test(first) || (LOG_LINE.test(first) && ETCD_OP_LINE.test(text))) return 'porcupine-etcd';
  if (/^\{\s*:process\b/.test(first) && /:key\b/.test(first)) return ext === 'edn' ? 'edn' : 'porcupine-kv';
  // A vector, list, map, comment, set, discard or tagged literal (`# A title` is none of them).
  if (/^([[({;]|#[A-Za-z{_])/.test(first)) return 'edn';
  throw new ParseError(
    { file: path, line: lineNo + 1, column: raw.search(/\S/) + 1 },
    'a history: JSON Lines ({"index": ...}), Jepsen EDN ([{:type ...} ...]), a Jepsen etcd log (INFO  jepsen.util - ...) or a Porcupine kv log ({:process ..., :key ...})',
    `\`${first.length > 40 ? `${first.slice(0, 40)}...` : first}\``,
    `Pass --format with one of: ${HISTORY_FORMATS.join(', ')}.`,
  );
}
