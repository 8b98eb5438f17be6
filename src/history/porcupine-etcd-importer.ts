/**
 * Import the Jepsen etcd logs in Porcupine's test data (Horn & Kroening's
 * linearizability-checker corpus): the lines jepsen.util logs for each op,
 *
 *     INFO  jepsen.util - 3	:invoke	:cas	[1 4]
 *
 * process, type, f and an EDN value (nil, an integer, `[from to]` for cas),
 * separated by tabs, or by runs of spaces in logs whose tabs were expanded
 * (etcd_100..102). A text before `INFO` (a timestamp) is allowed.
 *
 * A completion whose value is a keyword (`:info :write :timed-out`, `:fail
 * :read :timed-out`) reports an error, not a value: `error: "timed-out"`,
 * `value: null`. A line that looks like an op but does not parse as one (a
 * corrupted type, process or logger name: etcd-op-line-shape.ts) is an error
 * at its line. Any other line is log noise: skipped, counted, and reported in
 * one `log-noise` warning. The log has no times, so an op's position is its
 * index and its time: the log was written in real-time order.
 *
 * One op a line, and nothing after it: the op pattern runs to the line's end
 * (its value is read whole, so trailing text is an error of the value), the
 * text before `INFO` may not itself look like an op (a corrupted first op with
 * a good one after it would otherwise be skipped), and a keyword that says why
 * an op failed is one keyword. Lines are framed by line-splitter.ts: a bare CR
 * or another line terminator inside a line is refused before this sees it.
 */
import { ParseError } from '../../core/errors.js';
import { parseEdn } from './edn.js';
import { looksLikeOpLine, opLineProblem } from './etcd-op-line-shape.js';
import type { ImportOptions } from '../../core/history/history-warning.js';
import type { Op, OpType, Process } from '../../core/history/op.js';
import { describeValue } from '../../core/history/op-from-record.js';
import { lineOpParser, type OpParser } from './op-parser.js';

// Process and type decide that a line is an op line; past them a bad field is an error, not noise.
// The value is taken greedily and trimmed in code: a lazy `(.*?)\s*$` costs a backtrack per character. `s`: the value
// runs to the line's end even through a line terminator the splitter let stand (one inside a string).
const OP_LINE = /INFO\s+jepsen\.util\s+-\s+(\d+|:nemesis)\s+:(invoke|ok|fail|info)(?:\s+(\S+))?(?:\s+(.*))?$/s;
const OP_LINE_WITH_INDICES = new RegExp(OP_LINE.source, 'sd');
const INTEGER = /^-?\d+$/;
// The reason on a failed or indeterminate op (`:timed-out`): one keyword, nothing after it.
const KEYWORD = /^:[^\s,;"()[\]{}\\]+$/;
// A cas value `[from to]`: most values that are not a bare integer, so it skips the general EDN reader.
const PAIR = /^\[(-?\d+)\s+(-?\d+)\]$/;

/** A push parser of Jepsen etcd logs; `file` is named in errors and warnings. */
export function porcupineEtcdParser(file: string, opts: ImportOptions = {}): OpParser {
  let index = 0;
  let noise = 0;
  let firstNoise = 0;
  let firstNoiseText = '';
  const parseLine = (text: string, line: number): Op | null => {
    const m = OP_LINE.exec(text);
    if (m !== null) {
      // Text before the op (a timestamp) must not be an op of its own that did not parse.
      if (m.index > 0 && looksLikeOpLine(text.slice(0, m.index))) throw opLineError(text.slice(0, m.index), { file, line });
      return checked(opFromMatch(m, text, file, line, index++), text, file, line, opts);
    }
    // Meant as an op but not one: an error, as skipping a corrupted op can turn an invalid history valid.
    if (looksLikeOpLine(text)) throw opLineError(text, { file, line });
    if (text.trim() !== '' && noise++ === 0) {
      firstNoise = line;
      firstNoiseText = text.trim();
    }
    return null;
  };
  return lineOpParser(file, parseLine, () => {
    if (noise === 0) return;
    // Mostly noise is not a log with some noise in it: it is another format (or forced with the wrong --format).
    if (noise > index) {
      throw new ParseError(
        { file, line: firstNoise, column: 1 },
        `mostly jepsen.util op lines (INFO  jepsen.util - 3\t:invoke\t:read\tnil); ${noise} of ${noise + index} lines are not`,
        `\`${firstNoiseText.length > 40 ? `${firstNoiseText.slice(0, 40)}...` : firstNoiseText}\``,
      );
    }
    opts.onWarning?.({
      kind: 'log-noise',
      message: `${file}: skipped ${noise} line(s) that are not jepsen.util op lines (the first at line ${firstNoise})`,
      file,
      line: firstNoise,
      count: noise,
    });
  });
}

function opLineError(text: string, at: { file: string; line: number }): ParseError {
  const problem = opLineProblem(text);
  return new ParseError({ ...at, column: problem.offset + 1 }, problem.expected, problem.found);
}

// The model's declaration of values, checked at the value's column.
function checked(op: Op, text: string, file: string, line: number, opts: ImportOptions): Op {
  const expected = opts.checkValue?.(op);
  if (!expected) return op;
  const column = (OP_LINE_WITH_INDICES.exec(text)?.indices?.[4]?.[0] ?? 0) + 1;
  throw new ParseError({ file, line, column }, `the value to be ${expected} (${op.type} ${op.f})`, describeValue(op.value));
}

// `file` and `line` apart (not an object made for each line: only an error needs one). The groups read by
// index, not destructured: destructuring runs the iterator protocol until V8 optimises this, after most logs.
function opFromMatch(m: RegExpExecArray, text: string, file: string, line: number, index: number): Op {
  const proc = m[1] as string;
  const type = m[2] as OpType;
  const f = m[3];
  const valueText = m[4]?.trimEnd();
  const process: Process = proc === ':nemesis' ? 'nemesis' : Number(proc);
  if (f === undefined || f.length < 2 || f.charCodeAt(0) !== 0x3a) {
    // Error path only: re-match with indices to point at the bad field.
    const start = OP_LINE_WITH_INDICES.exec(text)?.indices?.[3]?.[0] ?? text.trimEnd().length;
    throw new ParseError({ file, line, column: start + 1 }, 'an operation keyword such as :read, :write or :cas', f === undefined ? 'end of line' : `\`${f}\``);
  }
  const op: Op = { index, time: index, process, type, f: f.slice(1), value: null };
  if (valueText === undefined || valueText === '' || valueText === 'nil') return op;
  if (valueText.charCodeAt(0) === 0x3a && type !== 'invoke' && type !== 'ok' && KEYWORD.test(valueText)) {
    // `:timed-out` and its kin: the op failed or its outcome is unknown, and this keyword says why.
    op.error = valueText.slice(1);
    return op;
  }
  if (INTEGER.test(valueText)) {
    op.value = Number(valueText);
    return op;
  }
  const pair = PAIR.exec(valueText);
  if (pair !== null) {
    op.value = [Number(pair[1]), Number(pair[2])];
    return op;
  }
  // The value group ends where the trimmed line ends, which gives its column without indices.
  const column = text.trimEnd().length - valueText.length + 1;
  try {
    op.value = parseEdn(valueText, { file, line, column });
  } catch (err) {
    throw secondOp(err, valueText, { file, line }, column);
  }
  return op;
}

// A value that does not parse because a second op follows it is said to be that: two ops on one line.
function secondOp(err: unknown, valueText: string, at: { file: string; line: number }, column: number): unknown {
  const second = /INFO\s+jepsen\.util\b/.exec(valueText);
  if (!(err instanceof ParseError) || second === null) return err;
  const rest = valueText.slice(second.index);
  return new ParseError({ ...at, column: column + second.index }, 'one op per line', `a second op \`${rest.length > 40 ? `${rest.slice(0, 40)}...` : rest}\``);
}
