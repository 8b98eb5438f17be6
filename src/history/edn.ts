/**
 * A small streaming EDN reader, enough for Jepsen histories.
 *
 * EDN is read into JSON values (docs/history.md): keywords become strings
 * without the colon (`:invoke` -> "invoke"), symbols become strings, nil ->
 * null, integers (with or without the BigInt `N` suffix) and floats (with or
 * without `M`) -> number (a literal a double cannot hold exactly enough to
 * keep it apart from another is refused, never rounded: json-text-checks.ts),
 * vectors and lists -> arrays, sets -> `{"#{}": [members, sorted]}`
 * (canonical-value.ts: order-free, and never equal to a vector), maps ->
 * objects whose keys are strings (a key that is neither a keyword nor a
 * string is spelled as JSON; a duplicate key is refused). A tagged literal
 * (`#jepsen.history.Op{...}`, `#inst "..."`) reads as its value; the tag is
 * dropped. `#_` discards a form, `^meta` is skipped, `;` starts a comment and
 * commas are whitespace. `##Inf`, `##-Inf` and `##NaN` read as the strings
 * "Infinity", "-Infinity" and "NaN", which JSON cannot hold as numbers.
 *
 * Streaming: `push` feeds text as it arrives and returns each top-level form
 * completed so far. A top-level vector or list is unwrapped (Jepsen writes a
 * history as one vector of op maps, or as a stream of maps), so its items come
 * out one by one and a history is never held twice. A form cut by the end of
 * a chunk is re-read from its start when more text comes; only that one form
 * is ever read twice. Positions are 1-based line:column; every error is a
 * ParseError saying what was expected and what was found.
 */
import { ParseError } from '../../core/errors.js';
import { ednAtom, ednCharacter, ednSymbolicValue } from './edn-atoms.js';
import type { Value } from '../../core/history/op.js';
import { setField } from '../../core/history/op-from-record.js';
import { MAX_DEPTH } from '../../core/history/read-limits.js';
import { unsafeNumberProblem } from '../../core/history/json-text-checks.js';
import { ednSet, SET_KEY } from '../../core/history/canonical-value.js';

/** A top-level form (or an item of a top-level vector), where it started, and its source text. */
export interface EdnForm {
  value: Value;
  line: number;
  column: number;
  text: string;
}

export interface EdnPosition {
  file: string;
  line: number;
  column: number;
}

/** Thrown inside the reader when a form runs past the text pushed so far; never escapes. */
const INCOMPLETE: unique symbol = Symbol('incomplete');
// A Map, not an object literal: a name read from the input must not find `constructor` on a prototype.
const ESCAPES = new Map(Object.entries({ '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/' }));
const CLOSERS: { [open: string]: string } = { '[': ']', '(': ')', '{': '}' };
const KINDS: { [open: string]: string } = { '[': 'vector', '(': 'list', '{': 'set' };

export class EdnReader {
  readonly file: string;
  private buf = '';
  private pos = 0;
  private line: number;
  /** Offset in `buf` where the current line starts; negative once that start has been dropped from `buf`. */
  private lineStart: number;
  private final = false;
  /** The top-level vector or list being unwrapped. */
  private top: { close: string; line: number; column: number; kind: string } | null = null;
  /** When set, records where each value of a top-level map starts (for error locations). */
  keyPositions: Map<string, EdnPosition> | null = null;
  /** Maps open around the current position (in readOne): keyPositions are the outermost map's, tagged or not. */
  private mapsOpen = 0;

  constructor(file: string, start: { line: number; column: number } = { line: 1, column: 1 }) {
    this.file = file;
    this.line = start.line;
    this.lineStart = 1 - start.column;
  }

  /** Feed more text; returns the forms completed by it. */
  push(chunk: string): EdnForm[] {
    this.buf = this.pos === 0 ? this.buf + chunk : this.buf.slice(this.pos) + chunk;
    this.lineStart -= this.pos;
    this.pos = 0;
    return this.pump();
  }

  /** The input is complete: returns the last forms, or throws if one is unfinished. */
  end(): EdnForm[] {
    this.final = true;
    const forms = this.pump();
    if (this.top !== null) {
      throw this.error(closing(this.top), 'end of file');
    }
    return forms;
  }

  /** Read exactly one form from `text`, which must hold nothing else. */
  readOne(text: string): Value {
    this.buf = text;
    this.pos = 0;
    this.final = true;
    this.mapsOpen = 0;
    this.skipSpace(0);
    const value = this.readForm(0, 'a value');
    this.skipSpace(0);
    if (this.pos < this.buf.length) throw this.error('the end of the value', this.foundAt(this.pos));
    return value;
  }

  private pump(): EdnForm[] {
    const out: EdnForm[] = [];
    for (;;) {
      // Where to resume if this form is cut by the end of the chunk (plain locals: no allocation per form).
      const savedPos = this.pos;
      const savedLine = this.line;
      const savedLineStart = this.lineStart;
      try {
        this.skipSpace(0);
        if (this.pos >= this.buf.length) break;
        const c = this.buf.charAt(this.pos);
        if (this.top === null && (c === '[' || c === '(')) {
          this.top = { close: CLOSERS[c] as string, line: this.line, column: this.column(), kind: c === '[' ? 'vector' : 'list' };
          this.pos++;
          continue;
        }
        if (this.top !== null && c === this.top.close) {
          this.top = null;
          this.pos++;
          continue;
        }
        if (this.top !== null && (c === ')' || c === ']' || c === '}')) {
          throw this.error(closing(this.top), `\`${c}\``);
        }
        const start = this.pos;
        const line = this.line;
        const column = this.column();
        const value = this.readForm(0, 'a value');
        out.push({ value, line, column, text: this.buf.slice(start, this.pos) });
      } catch (err) {
        if (err !== INCOMPLETE) throw err;
        this.pos = savedPos;
        this.line = savedLine;
        this.lineStart = savedLineStart;
        break;
      }
    }
    return out;
  }

  // `depth` counts every form a form sits inside, tags, `^meta` and `#_` included: each of them recurses, so a chain
  // of them in a hostile file (`#_ #_ #_ ...`, `#t #t ...`) must hit the bound as nesting does, not the stack.
  private readForm(depth: number, expected: string): Value {
    if (depth > MAX_DEPTH) throw this.tooDeep();
    this.skipSpace(depth);
    if (this.pos >= this.buf.length) this.endOfInput(expected);
    const c = this.buf.charAt(this.pos);
    switch (c) {
      case '"':
        return this.readString();
      case ':':
        return this.readKeyword();
      case '{':
        return this.readMap(depth);
      case '[':
      case '(':
        return this.readSeq(depth, c);
      case '#':
        return this.readDispatch(depth);
      case '^':
        this.pos++;
        this.readForm(depth + 1, 'metadata after `^`');
        return this.readForm(depth + 1, 'a value after the metadata');
      case '\\':
        return this.readChar();
      case ')':
      case ']':
      case '}':
        throw this.error(expected, `\`${c}\``);
      default:
        return this.readAtom();
    }
  }

  private readSeq(depth: number, open: string): Value[] {
    const line = this.line;
    const column = this.column();
    const close = CLOSERS[open] as string;
    this.pos++;
    const items: Value[] = [];
    for (;;) {
      this.skipSpace(depth + 1);
      if (this.pos >= this.buf.length) this.endOfInput(closing({ close, kind: KINDS[open] as string, line, column }));
      const c = this.buf.charAt(this.pos);
      if (c === close) {
        this.pos++;
        return items;
      }
      if (c === ')' || c === ']' || c === '}') throw this.error(closing({ close, kind: KINDS[open] as string, line, column }), `\`${c}\``);
      items.push(this.readForm(depth + 1, 'a value'));
    }
  }

  private readMap(depth: number): { [key: string]: Value } {
    const line = this.line;
    const column = this.column();
    this.pos++;
    const map: { [key: string]: Value } = {};
    const outermost = this.mapsOpen++ === 0;
    for (;;) {
      this.skipSpace(depth + 1);
      if (this.pos >= this.buf.length) this.endOfInput(closing({ close: '}', kind: 'map', line, column }));
      const c = this.buf.charAt(this.pos);
      if (c === '}') {
        this.pos++;
        this.mapsOpen--;
        return map;
      }
      if (c === ')' || c === ']') throw this.error(closing({ close: '}', kind: 'map', line, column }), `\`${c}\``);
      const keyStart = this.pos;
      const key = this.readForm(depth + 1, 'a key');
      const name = typeof key === 'string' ? key : JSON.stringify(key);
      // Refused: a key spelled like another (`:a` and `"a"`, a key equal to a set's spelling) would merge two entries.
      if (Object.hasOwn(map, name) || name === SET_KEY) this.badKey(keyStart, name);
      this.skipSpace(depth + 1);
      if (this.pos >= this.buf.length || this.buf.charAt(this.pos) === '}') {
        // Built only here: most maps are well formed and this is the hot loop.
        const expected = `a value for the key \`${this.buf.slice(keyStart, this.pos).trim()}\``;
        if (this.pos >= this.buf.length) this.endOfInput(expected);
        throw this.error(expected, '`}`');
      }
      if (this.keyPositions !== null && outermost) this.keyPositions.set(name, { file: this.file, line: this.line, column: this.column() });
      setField(map, name, this.readForm(depth + 1, 'a value'));
    }
  }

  // `#{...}` set, `#_` discard (handled as whitespace), `##Inf`, or a tag before a value.
  private readDispatch(depth: number): Value {
    const next = this.peek(1);
    if (next === '{') {
      const at = { file: this.file, line: this.line, column: this.column() };
      this.pos++;
      const set = ednSet(this.readSeq(depth, '{'));
      if ('value' in set) return set.value;
      throw new ParseError(at, 'a set without duplicate members (EDN forbids them)', `member ${set.duplicate + 1} equal to an earlier one`);
    }
    if (next === '#') {
      this.pos += 2;
      const name = this.token();
      const v = ednSymbolicValue(name);
      if (v === undefined) throw this.error('##Inf, ##-Inf or ##NaN', `\`##${name}\``);
      return v;
    }
    const at = this.pos;
    this.pos++;
    const tag = this.token();
    if (tag === '' || !/^[A-Za-z]/.test(tag)) {
      this.pos = at;
      throw this.error('a tag, `{` or `_` after `#`', this.foundAt(at + 1));
    }
    return this.readForm(depth + 1, `a value after the tag \`#${tag}\``);
  }

  private readString(): string {
    const buf = this.buf;
    const startLine = this.line;
    const startColumn = this.column();
    let out = '';
    let seg = this.pos + 1;
    for (let i = seg; i < buf.length; i++) {
      const c = buf.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return out + buf.slice(seg, i);
      }
      if (c === 0x0a) {
        this.line++;
        this.lineStart = i + 1;
      } else if (c === 0x5c) {
        out += buf.slice(seg, i);
        const [text, width] = this.escape(i);
        out += text;
        i += width - 1;
        seg = i + 1;
      }
    }
    if (!this.final) throw INCOMPLETE;
    throw new ParseError({ file: this.file, line: startLine, column: startColumn }, 'a closing `"` for this string', 'end of file');
  }

  // The escape at `i` (a backslash): its text and how many characters it spans.
  private escape(i: number): [string, number] {
    if (i + 1 >= this.buf.length) this.endAt(i, 'an escape after `\\`');
    const c = this.buf.charAt(i + 1);
    const simple = ESCAPES.get(c);
    if (simple !== undefined) return [simple, 2];
    if (c === 'u') {
      if (i + 6 > this.buf.length && !this.final) throw INCOMPLETE;
      const hex = this.buf.slice(i + 2, i + 6);
      if (/^[0-9a-fA-F]{4}$/.test(hex)) return [String.fromCharCode(parseInt(hex, 16)), 6];
      this.pos = i;
      throw this.error('four hex digits after `\\u`', `\`\\u${hex}\``);
    }
    this.pos = i;
    throw this.error('an escape: \\" \\\\ \\n \\t \\r \\b \\f or \\uXXXX', `\`\\${c}\``);
  }

  private readKeyword(): string {
    const at = this.pos;
    this.pos++;
    const name = this.token();
    if (name === '' || name.startsWith(':')) {
      this.pos = at;
      throw this.error('a keyword name after `:`', this.foundAt(at + 1));
    }
    return name;
  }

  private readChar(): string {
    const at = this.pos;
    if (at + 1 >= this.buf.length) this.endAt(at, 'a character after `\\`');
    this.pos = at + 2;
    const name = this.buf.charAt(at + 1) + this.token();
    const c = ednCharacter(name);
    if (c !== undefined) return c;
    this.pos = at;
    throw this.error('a character literal (\\c, \\newline, \\space, \\tab, \\uXXXX)', `\`\\${name}\``);
  }

  private readAtom(): Value {
    const at = this.pos;
    const text = this.token();
    const v = ednAtom(text);
    this.pos = at;
    const problem = typeof v === 'number' ? unsafeNumberProblem(text.replace(/[NM]$/, ''), v) : null;
    if (problem !== null) throw this.error(problem, `\`${text.length > 40 ? `${text.slice(0, 40)}...` : text}\``);
    this.pos = at + text.length;
    if (v !== undefined) return v;
    this.pos = at;
    throw this.error('a number', `\`${text}\``);
  }

  // A symbol-like token from `pos`: up to whitespace or a delimiter.
  private token(): string {
    const buf = this.buf;
    const start = this.pos;
    let i = start;
    while (i < buf.length && !isDelimiter(buf.charCodeAt(i))) i++;
    if (i >= buf.length && !this.final) throw INCOMPLETE;
    this.pos = i;
    return buf.slice(start, i);
  }

  // Whitespace, commas, `;` comments and `#_` discarded forms.
  private skipSpace(depth: number): void {
    const buf = this.buf;
    let i = this.pos;
    while (i < buf.length) {
      const c = buf.charCodeAt(i);
      if (c === 0x0a) {
        this.line++;
        this.lineStart = i + 1;
        i++;
      } else if (c === 0x20 || c === 0x2c || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x0b || c === 0xfeff) {
        i++;
      } else if (c === 0x3b) {
        const nl = buf.indexOf('\n', i);
        if (nl >= 0) i = nl;
        else if (this.final) i = buf.length;
        else throw INCOMPLETE;
      } else if (c === 0x23 && i + 1 >= buf.length && !this.final) {
        throw INCOMPLETE;
      } else if (c === 0x23 && buf.charCodeAt(i + 1) === 0x5f) {
        this.pos = i;
        if (depth >= MAX_DEPTH) throw this.tooDeep();
        this.pos = i + 2;
        this.readForm(depth + 1, 'a form to discard after `#_`');
        i = this.pos;
      } else break;
    }
    this.pos = i;
  }

  private peek(ahead: number): string {
    if (this.pos + ahead >= this.buf.length && !this.final) throw INCOMPLETE;
    return this.buf.charAt(this.pos + ahead);
  }

  private column(): number {
    return this.pos - this.lineStart + 1;
  }

  private endOfInput(expected: string): never {
    if (!this.final) throw INCOMPLETE;
    throw this.error(expected, 'end of file');
  }

  private endAt(at: number, expected: string): never {
    if (!this.final) throw INCOMPLETE;
    this.pos = at;
    throw this.error(expected, 'end of file');
  }

  private foundAt(i: number): string {
    if (i >= this.buf.length) return 'end of file';
    const c = this.buf.charAt(i);
    return c === '\n' || c === '\r' ? 'end of line' : c === ' ' || c === '\t' || c === ',' ? 'whitespace' : `\`${c}\``;
  }

  private badKey(keyStart: number, name: string): never {
    const text = this.buf.slice(keyStart, this.pos).trim();
    this.pos = keyStart;
    if (name === SET_KEY) throw this.error(`a map key other than "${SET_KEY}" (how fencecheck spells a set)`, `\`${text}\``);
    throw this.error('a map without duplicate keys (EDN forbids them; a keyword and a string of the same name count as one here)', `\`${text}\` again`);
  }

  private tooDeep(): ParseError {
    return this.error(`nesting at most ${MAX_DEPTH} deep (collections, tags, ^metadata and #_ discards all count)`, 'deeper nesting');
  }

  private error(expected: string, found: string): ParseError {
    return new ParseError({ file: this.file, line: this.line, column: this.column() }, expected, found);
  }
}

/** Read one EDN value from `text` (which starts at `at`, for error positions). */
export function parseEdn(text: string, at: EdnPosition = { file: '<edn>', line: 1, column: 1 }): Value {
  return new EdnReader(at.file, at).readOne(text);
}

/** Where the value of `key` starts in a top-level map form, to point an error at it; the form's start if absent. */
export function ednValuePosition(form: EdnForm, file: string, key: string): EdnPosition {
  const reader = new EdnReader(file, form);
  reader.keyPositions = new Map();
  reader.readOne(form.text);
  return reader.keyPositions.get(key) ?? { file, line: form.line, column: form.column };
}

// Whitespace, commas and the characters that end a token: " ; ( ) [ ] { }
function closing(open: { close: string; kind: string; line: number; column: number }): string {
  return `\`${open.close}\` to close the ${open.kind} opened at ${open.line}:${open.column}`;
}

function isDelimiter(c: number): boolean {
  return (
    c === 0x20 || c === 0x0a || c === 0x2c || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x0b ||
    c === 0x22 || c === 0x3b || c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d
  );
}
