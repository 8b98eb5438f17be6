/**
 * What a foreign client noticed about its own library, as it reported it on
 * stderr (docs/client-protocol.md, "Findings"): a line holding
 * `finding: KIND: details`, after any timestamp. The Go etcd-mutex client,
 * for instance, reports `finding: expired-lease grant: …` when Mutex.Lock
 * returned but its key (its lease) was already gone: the etcd-io/etcd#11456
 * grant that no history can show, because the history sees only the answer.
 *
 * `countFindings` is pure over a log's text; `readClientFindings` reads the
 * client logs of a run directory (logs/client*.log, named by real-world.ts).
 */
import { readClientLogs } from '../../runtime/store/run-dir-entries.js';

/** Findings by kind, e.g. `{ 'expired-lease grant': 2 }`. */
export type ClientFindings = Record<string, number>;

// A kind is words of letters, digits, spaces and dashes, so that a colon in the details cannot be taken for its end.
const FINDING = /(?:^|\s)finding: ([a-z0-9][a-z0-9 -]{0,60}?): /i;

export function countFindings(text: string, into: ClientFindings = {}): ClientFindings {
  for (const line of text.split('\n')) {
    const m = FINDING.exec(line);
    if (m) into[m[1]!.toLowerCase()] = (into[m[1]!.toLowerCase()] ?? 0) + 1;
  }
  return into;
}

/** The findings of every client process of a run (none when it has no logs folder). */
export function readClientFindings(runDir: string): ClientFindings {
  const found: ClientFindings = {};
  for (const log of readClientLogs(runDir)) countFindings(log.text, found);
  return found;
}

/** Findings summed over runs. */
export function addFindings(all: readonly ClientFindings[]): ClientFindings {
  const sum: ClientFindings = {};
  for (const f of all) for (const [k, n] of Object.entries(f)) sum[k] = (sum[k] ?? 0) + n;
  return sum;
}
