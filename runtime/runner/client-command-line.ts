/**
 * `--client 'COMMAND ARGS'` as argv, checked when the flag is parsed (before
 * any run directory or cluster exists). Pure.
 */
import { UsageError } from '../../core/errors.js';

/** `--client` text as argv: words split on blanks, with '…' and "…" quoting and \ escapes, no other shell features. */
export function parseClientCommand(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) word = (word ?? '') + text[++i];
      else word = (word ?? '') + ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word = word ?? '';
    } else if (ch === '\\' && i + 1 < text.length) word = (word ?? '') + text[++i];
    else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (quote)
    throw new UsageError(
      `Expected \`--client\` to be a command line with balanced quotes, got \`${text}\` (an unclosed ${quote})`,
      "Quote the whole command once: --client '/usr/bin/python3 clients/python/redis_py_client.py'.",
    );
  if (word !== undefined) words.push(word);
  if (words.length === 0)
    throw new UsageError(
      'Expected `--client` to be a command line, got an empty one',
      "For example: --client '/usr/bin/python3 clients/python/redis_py_client.py'.",
    );
  return words;
}
