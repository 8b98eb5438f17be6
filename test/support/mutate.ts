/**
 * Test helper: fast-check arbitraries that damage a text the way files get
 * damaged or forged: a character replaced (by a control character, a quote, a
 * bracket, a digit...), the text cut at any point, a line dropped or doubled,
 * deep nesting or a huge number inserted, random garbage spliced in. The
 * fuzz properties apply a few of them to a real, well-formed input, so most
 * runs stay close enough to the format to reach deep into the parsers.
 */
import fc from 'fast-check';

export type Mutation =
  | { kind: 'replace'; at: number; text: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'drop-line'; at: number }
  | { kind: 'double-line'; at: number }
  | { kind: 'insert'; at: number; text: string };

/** Characters that matter to the parsers: delimiters, quotes, escapes, digits, controls, a BOM, C1, surrogates. */
const NASTY = ['"', '\\', '{', '}', '[', ']', '(', ')', ':', ',', '#', ';', '\n', '\r', '\t', '\0', '\u001b', '\u009b', '\ufeff', '\ud800', '-', '0', '9', 'e', 'N', 'M', ' ', 'nil', 'null', ':invoke', ':ok'];
const HUGE = ['1e400', '-1e400', '9007199254740993', '123456789012345678901234567890', '1e999999', '0.0000000000000000000000001', '-0', 'NaN', 'Infinity', '##Inf', '99999999999999999999N'];

const insertion = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.constantFrom(...HUGE),
  fc.integer({ min: 1, max: 3000 }).chain((n) => fc.constantFrom('['.repeat(n), '{"a":'.repeat(n), '{:a '.repeat(n), '('.repeat(n), `${'['.repeat(n)}1${']'.repeat(n)}`)),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: insertion }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('double-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: insertion }),
);

export const mutations = fc.array(mutation, { minLength: 1, maxLength: 4 });

/** The text with the mutations applied in order (positions taken modulo the text's current length). */
export function mutate(text: string, list: readonly Mutation[]): string {
  let t = text;
  for (const m of list) {
    const at = m.at % (t.length + 1);
    switch (m.kind) {
      case 'replace':
        t = t.slice(0, at) + m.text + t.slice(at + 1);
        break;
      case 'truncate':
        t = t.slice(0, at);
        break;
      case 'insert':
        t = t.slice(0, at) + m.text + t.slice(at);
        break;
      case 'drop-line':
      case 'double-line': {
        const lines = t.split('\n');
        const i = m.at % lines.length;
        if (m.kind === 'drop-line') lines.splice(i, 1);
        else lines.splice(i, 0, lines[i] ?? '');
        t = lines.join('\n');
        break;
      }
    }
  }
  return t;
}

/** Garbage with no base text: what a user might point the tool at by mistake. */
export const garbage: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'), { maxLength: 6 }).map((lines) => lines.join('\n')),
  insertion,
);
