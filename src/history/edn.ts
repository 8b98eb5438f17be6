/**
 * A small streaming EDN reader, enough for Jepsen histories.
 *
 * EDN is read into history values (docs/history.md) that keep apart what
 * Clojure's `=` keeps apart: what JSON has the same of stays plain (nil ->
 * null, booleans, strings, integers with or without `N`, doubles with a
 * fraction, vectors and lists -> arrays, maps whose keys are all strings ->
 * objects), and every other type is a one-key object with a canonical
 * payload (core/history/edn-value.ts): keywords, symbols, characters,
 * doubles without a fraction and `##Inf`, ratios, BigDecimals
 * (edn-numbers.ts), tagged literals (edn-tagged.ts: `#inst` as its
 * millisecond, `#uuid` in lower case, any other tag kept), sets (members
 * sorted) and maps whose keys are keywords (by name) or anything else
 * (entries sorted). A duplicate map key or set member is refused, as EDN
 * forbids them, and so is what no history value can hold faithfully: an
 * integer or double a double cannot keep apart from its neighbours
 * (json-text-checks.ts), a ratio with a term beyond 2^53, `##NaN` (equal to
 * nothing, itself included). `#_` discards a form, `^meta` is skipped,
 * commas are whitespace.
 *
 * Whitespace and tokens are Clojure's: whitespace is Java's (U+2028 and
 * U+2029 included), a token ends at whitespace or at one of `"` `;` `^` `\`
 * and the brackets. A `;` comment ends at `\n` or `\r`, as in Clojure; one
 * that holds another line terminator (VT, FF, U+0085, U+2028, U+2029), after
 * which an editor shows a new line but Clojure reads on as the comment, is
 * refused, as is U+0085 outside a string (to Clojure a part of a token): an
 * op after one must never be hidden or joined to another silently.
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
import { ednNumberProblem } from './edn-numbers.js';
import { ednTagged, ednTaggedProblem } from './edn-tagged.js';
import type { Value } from '../../core/history/op.js';
import { setField } from '../../core/history/op-from-record.js';
import { MAX_DEPTH } from '../../core/history/read-limits.js';
import { EDN_TAG, ednCharacterValue, ednEntryMap, ednKeyword, ednSet, ednTagOf, keywordName } from '../../core/history/edn-value.js';
import { showValue } from '../../core/history/show-value.js';

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
/** The kinds of a map's keys so far: none yet, all keywords, all strings, or mixed (held as entries). */
const NO_KEYS = 0;
const KEYWORD_KEYS = 1;
const STRING_KEYS = 2;
const OTHER_KEY = 3;
const NAN_REFUSED =
  "a value other than ##NaN: Clojure's = finds NaN equal to nothing, itself included, so no read of it can match a write; write it as a keyword or a string";

/** A key of a map read as entries, with where it was (to point at a duplicate). */
interface MapEntry {
  key: Value;
  value: Value;
  at: { line: number; column: number; start: number; end: number } | null;
}

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

  private readMap(depth: number): Value {
    const line = this.line;
    const column = this.column();
    this.pos++;
    // Entries by name while the keys are all keywords or all strings (op maps, the common case); entries once mixed.
    const byName: { [key: string]: Value } = {};
    let kind = NO_KEYS;
    let entries: MapEntry[] | null = null;
    const outermost = this.mapsOpen++ === 0;
    for (;;) {
      this.skipSpace(depth + 1);
      if (this.pos >= this.buf.length) this.endOfInput(closing({ close: '}', kind: 'map', line, column }));
      const c = this.buf.charAt(this.pos);
      if (c === '}') {
        this.pos++;
        this.mapsOpen--;
        return entries !== null ? this.entryMap(entries) : namedMap(byName, kind);
      }
      if (c === ')' || c === ']') throw this.error(closing({ close: '}', kind: 'map', line, column }), `\`${c}\``);
      const keyStart = this.pos;
      const keyLine = this.line;
      const keyColumn = this.column();
      let name: string | undefined;
      let key: Value = null;
      let keyKind: number;
      if (c === ':') {
        name = this.readKeywordName();
        keyKind = KEYWORD_KEYS;
      } else {
        key = this.readForm(depth + 1, 'a key');
        // A keyword behind `^meta` is the keyword still (the metadata is skipped): keyed by name as `:k` is.
        const keyword = typeof key === 'string' ? undefined : keywordName(key);
        name = typeof key === 'string' ? key : keyword;
        keyKind = typeof key === 'string' ? STRING_KEYS : keyword !== undefined ? KEYWORD_KEYS : OTHER_KEY;
      }
      const keyEnd = this.pos;
      const byItsName = entries === null && name !== undefined && (kind === NO_KEYS || kind === keyKind);
      if (byItsName && Object.hasOwn(byName, name as string)) this.duplicateKey({ line: keyLine, column: keyColumn, start: keyStart, end: keyEnd });
      this.skipSpace(depth + 1);
      if (this.pos >= this.buf.length || this.buf.charAt(this.pos) === '}') {
        // Built only here: most maps are well formed and this is the hot loop.
        const expected = `a value for the key \`${this.buf.slice(keyStart, keyEnd).trim()}\``;
        if (this.pos >= this.buf.length) this.endOfInput(expected);
        throw this.error(expected, '`}`');
      }
      if (this.keyPositions !== null && outermost && name !== undefined)
        this.keyPositions.set(name, { file: this.file, line: this.line, column: this.column() });
      const value = this.readForm(depth + 1, 'a value');
      if (byItsName) {
        kind = keyKind;
        setField(byName, name as string, value);
        continue;
      }
      entries ??= entriesOf(byName, kind);
      entries.push({
        key: keyKind === KEYWORD_KEYS ? ednKeyword(name as string) : key,
        value,
        at: { line: keyLine, column: keyColumn, start: keyStart, end: keyEnd },
      });
    }
  }

  // A map whose keys are not all keywords or all strings: its entries sorted, a duplicate key refused where it is.
  private entryMap(entries: MapEntry[]): Value {
    const map = ednEntryMap(entries.map((e) => [e.key, e.value]));
    if ('value' in map) return map.value;
    this.duplicateKey(entries[map.duplicate]!.at!);
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
      if (v === undefined) throw this.error(name === 'NaN' ? NAN_REFUSED : '##Inf or ##-Inf', `\`##${name}\``);
      return v;
    }
    const at = this.pos;
    const tagAt = { file: this.file, line: this.line, column: this.column() };
    this.pos++;
    const tag = this.token();
    if (tag === '' || !/^[A-Za-z]/.test(tag)) {
      this.pos = at;
      throw this.error('a tag, `{` or `_` after `#`', this.foundAt(at + 1));
    }
    const form = this.readForm(depth + 1, `a value after the tag \`#${tag}\``);
    const v = ednTagged(tag, form);
    if (v !== undefined) return v;
    const shown = showValue(form);
    throw new ParseError(tagAt, ednTaggedProblem(tag), `\`#${tag} ${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}\``);
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

  private readKeyword(): Value {
    return ednKeyword(this.readKeywordName());
  }

  private readKeywordName(): string {
    const at = this.pos;
    this.pos++;
    const name = this.token();
    if (name === '' || name.startsWith(':')) {
      this.pos = at;
      throw this.error('a keyword name after `:`', this.foundAt(at + 1));
    }
    return name;
  }

  private readChar(): Value {
    const at = this.pos;
    if (at + 1 >= this.buf.length) this.endAt(at, 'a character after `\\`');
    this.pos = at + 2;
    const name = this.buf.charAt(at + 1) + this.token();
    const c = ednCharacter(name);
    if (c !== undefined) return ednCharacterValue(c);
    this.pos = at;
    throw this.error('a character literal (\\c, \\newline, \\space, \\tab, \\uXXXX)', `\`\\${name}\``);
  }

  private readAtom(): Value {
    const at = this.pos;
    const text = this.token();
    const v = ednAtom(text);
    if (v !== undefined) return v;
    this.pos = at;
    throw this.error(ednNumberProblem(text), `\`${text.length > 40 ? `${text.slice(0, 40)}...` : text}\``);
  }

  // A symbol-like token from `pos`: up to whitespace or a delimiter.
  private token(): string {
    const buf = this.buf;
    const start = this.pos;
    let i = start;
    for (let c = buf.charCodeAt(i); i < buf.length && !isDelimiter(c); c = buf.charCodeAt(++i)) {
      if (c === 0x85) {
        this.pos = i;
        throw this.error('a token without U+0085 (NEL): Clojure reads it as part of the token, an editor shows a new line', '`U+0085`');
      }
    }
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
      } else if (isSpace(c)) {
        i++;
      } else if (c === 0x3b) {
        i = this.commentEnd(i);
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

  // Where the comment at `i` ends: at `\n` or `\r`, as Clojure's reader ends it; another line terminator inside is refused.
  private commentEnd(i: number): number {
    const buf = this.buf;
    for (let j = i + 1; j < buf.length; j++) {
      const c = buf.charCodeAt(j);
      if (c === 0x0a || c === 0x0d) return j;
      if (c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028 || c === 0x2029) {
        this.pos = j;
        const name = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
        throw this.error(`a comment ended by a newline: Clojure reads on past ${name} as the comment, where an editor shows a new line`, `\`${name}\``);
      }
    }
    if (!this.final) throw INCOMPLETE;
    return buf.length;
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

  private duplicateKey(at: { line: number; column: number; start: number; end: number }): never {
    const text = this.buf.slice(at.start, at.end).trim();
    throw new ParseError(
      { file: this.file, line: at.line, column: at.column },
      'a map without duplicate keys (EDN forbids them)',
      `\`${text.length > 40 ? `${text.slice(0, 40)}...` : text}\` again`,
    );
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

function closing(open: { close: string; kind: string; line: number; column: number }): string {
  return `\`${open.close}\` to close the ${open.kind} opened at ${open.line}:${open.column}`;
}

/** A map read by its keys' names: keyword keys tagged, string keys as an object (unless that object would pass for a tagged value). */
function namedMap(byName: { [key: string]: Value }, kind: number): Value {
  if (kind === KEYWORD_KEYS) return { [EDN_TAG.keywordMap]: byName };
  if (kind === STRING_KEYS && ednTagOf(byName) !== undefined) {
    // The names are an object's keys, so none repeats: the entry map cannot report a duplicate.
    const read = ednEntryMap(entriesOf(byName, kind).map((e) => [e.key, e.value]));
    if ('value' in read) return read.value;
  }
  return byName;
}

function entriesOf(byName: { [key: string]: Value }, kind: number): MapEntry[] {
  const entries: MapEntry[] = [];
  for (const name in byName) entries.push({ key: kind === KEYWORD_KEYS ? ednKeyword(name) : name, value: byName[name] as Value, at: null });
  return entries;
}

// Java's Character.isWhitespace, and the comma: what Clojure's reader skips between forms.
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c === 0x2c) return true;
  return (
    c >= 0x1680 &&
    (c === 0x1680 || (c >= 0x2000 && c <= 0x2006) || (c >= 0x2008 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x205f || c === 0x3000)
  );
}

// Whitespace and the characters that end a token: " ; ^ \ ( ) [ ] { }
function isDelimiter(c: number): boolean {
  return c === 0x22 || c === 0x3b || c === 0x5e || c === 0x5c || c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || isSpace(c);
}
