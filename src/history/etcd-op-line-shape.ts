/**
 * Which lines of a Jepsen etcd log are meant as ops, and what is wrong with
 * one that does not parse as one.
 *
 * Why: the importer skips log noise (other loggers' lines) with a warning, so
 * a corrupted op line (`:okk`, a process `x1`, a logger `jepsen.utiI`) used
 * to be skipped too, and dropping one completion can turn an invalid history
 * valid. A line that looks like an op is an op: it parses, or it is an error
 * at its line. A line looks like an op when it names the op logger
 * (`jepsen.util`), carries an op type keyword as a field (`:invoke`, `:ok`,
 * `:fail`, `:info`, or one spelled close to them), or has the op's shape (a
 * field, then two keywords, tab-separated, or after ` - ` with a number in the
 * field). Other loggers' lines (`INFO
 * jepsen.core - Running test`, `:n1 setting up debian`) have none of these.
 */

export interface OpLineProblem {
  /** 0-based offset of the field that is wrong. */
  offset: number;
  expected: string;
  found: string;
}

const TYPES = ['invoke', 'ok', 'fail', 'info'];
const OP_LOGGER = /jepsen\.util\b/;
// A keyword field after whitespace, up to whitespace: `:okk`, `:invok`, `:info`.
const KEYWORD_FIELD = /(?:^|\s):([A-Za-z][\w-]*)(?=\s|$)/g;
// The op's tab-separated shape: a field, a keyword, a keyword (`3\t:invoke\t:read`), whatever is before it.
const TAB_SHAPE = /\S+\t:\S+\t:\S+/;
// The same with the tabs expanded, after a logger's ` - `: a process (or a number-like token), then two keywords.
const SPACED_SHAPE = /\s-\s+\S*\d\S*\s+:\S+\s+:\S+/;
const PREFIX = /^(.*?)\bINFO\s+jepsen\.util\s+-\s+/;
const PROCESS = /^(\d+|:nemesis)$/;

/** Whether a line that is not a well-formed op line was meant as one (then it is an error, not noise). */
export function looksLikeOpLine(text: string): boolean {
  if (OP_LOGGER.test(text) || TAB_SHAPE.test(text) || SPACED_SHAPE.test(text)) return true;
  for (const m of text.matchAll(KEYWORD_FIELD)) if (nearType(m[1] as string)) return true;
  return false;
}

/** The first field of an op-like line that is not what an op line has there. */
export function opLineProblem(text: string): OpLineProblem {
  const prefix = PREFIX.exec(text);
  if (prefix === null) {
    const level = text.search(/\S/);
    return { offset: Math.max(level, 0), expected: 'an op line `INFO  jepsen.util - <process> :<type> :<f> <value>`', found: quoted(text.trim()) };
  }
  let offset = prefix[0].length;
  const fields = text.slice(offset).split(/(\s+)/);
  const proc = fields[0] ?? '';
  if (!PROCESS.test(proc)) return { offset, expected: 'a process: a non-negative integer or :nemesis', found: proc === '' ? 'end of line' : quoted(proc) };
  offset += proc.length + (fields[1]?.length ?? 0);
  const type = fields[2] ?? '';
  return { offset, expected: 'an op type: :invoke, :ok, :fail or :info', found: type === '' ? 'end of line' : quoted(type) };
}

// Equal to an op type, or one edit away (a corrupted `:okk`, `:invok`, `:fial`).
function nearType(word: string): boolean {
  return TYPES.some((t) => withinOneEdit(word.toLowerCase(), t));
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

function quoted(s: string): string {
  return `\`${s.length > 40 ? `${s.slice(0, 40)}...` : s}\``;
}
