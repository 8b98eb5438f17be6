/**
 * Test helper: fast-check arbitraries that damage a text the way files get
 * damaged or forged: a character replaced (by a control character, a quote, a
 * bracket, a digit...), the text cut at any point, a line dropped or doubled,
 * deep nesting or a huge number inserted, random garbage spliced in, bytes
 * that are not UTF-8 (byteMutation). The
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
const NASTY = [
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  ':',
  ',',
  '#',
  ';',
  '\n',
  '\r',
  '\t',
  '\0',
  '\u001b',
  '\u009b',
  '\ufeff',
  '\ud800',
  '-',
  '0',
  '9',
  'e',
  'N',
  'M',
  ' ',
  'nil',
  'null',
  ':invoke',
  ':ok',
];
const HUGE = [
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '1e999999',
  '0.0000000000000000000000001',
  '-0',
  'NaN',
  'Infinity',
  '##Inf',
  '99999999999999999999N',
];

/** Number literals of every edge class: beyond 2^53 in float and exponent spellings, underflow, subnormal, signed zero, and safe ones. */
export const EDGE_LITERALS: readonly string[] = [
  '9007199254740993.0',
  '9007199254740992.0',
  '9.007199254740993e15',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993.0',
  '1e16',
  '1.5e300',
  '1e-400',
  '-1e-400',
  '5e-324',
  '2.2250738585072011e-308',
  `0.${'0'.repeat(330)}1`,
  '2.2250738585072014e-308',
  '9007199254740991',
  '9007199254740991.0',
  '1e15',
  '0.0',
  '-0.0',
  '0e5',
  '1e-10',
  '1.5',
  '-2',
];

const insertion = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.constantFrom(...HUGE),
  fc.constantFrom(...EDGE_LITERALS),
  fc
    .integer({ min: 1, max: 3000 })
    .chain((n) => fc.constantFrom('['.repeat(n), '{"a":'.repeat(n), '{:a '.repeat(n), '('.repeat(n), `${'['.repeat(n)}1${']'.repeat(n)}`)),
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
  fc
    .array(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
      { maxLength: 6 },
    )
    .map((lines) => lines.join('\n')),
  insertion,
);

/**
 * Byte-level damage, for what a text cannot carry: sequences that are not
 * UTF-8 (each class the strict decoder refuses), valid multi-byte characters,
 * and a BOM, inserted or written over a byte. Applied to a file's bytes after
 * any text mutations.
 */
export type ByteMutation = { kind: 'insert-bytes' | 'replace-bytes'; at: number; bytes: number[] };

export const INVALID_UTF8: readonly number[][] = [
  [0xff],
  [0xfe],
  [0x80],
  [0xbf],
  [0xc0, 0xaf],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf0, 0x80, 0x80, 0xaf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5, 0x80, 0x80, 0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xc3, 0x41],
];
const VALID_MULTIBYTE: readonly number[][] = [
  [0xc3, 0xa9],
  [0xe2, 0x82, 0xac],
  [0xf0, 0x9f, 0x98, 0x80],
  [0xef, 0xbb, 0xbf],
  [0xef, 0xbf, 0xbd],
];

export const byteMutation: fc.Arbitrary<ByteMutation> = fc.record({
  kind: fc.constantFrom('insert-bytes' as const, 'replace-bytes' as const),
  at: fc.nat(),
  bytes: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...INVALID_UTF8) }, { weight: 1, arbitrary: fc.constantFrom(...VALID_MULTIBYTE) }),
});

/** The bytes with the mutations applied in order (positions modulo the current length). */
export function mutateBytes(bytes: Uint8Array, list: readonly ByteMutation[]): Buffer {
  let b = Buffer.from(bytes);
  for (const m of list) {
    const at = m.at % (b.length + 1);
    const rest = m.kind === 'insert-bytes' ? at : Math.min(at + 1, b.length);
    b = Buffer.concat([b.subarray(0, at), Buffer.from(m.bytes), b.subarray(rest)]);
  }
  return b;
}

/** What a strict reference decoder makes of the bytes: the text, or null when they are not UTF-8. */
export function strictDecode(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
