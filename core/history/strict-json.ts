/**
 * parseStrictJson: JSON.parse for text fencecheck did not write itself
 * (`--init`, run files, manifests, `--expect`, scripts, merged hunts), with
 * one rule JSON.parse lacks: an object that holds a key twice is refused
 * (JSON.parse keeps the last, so `{"valid":false,"valid":true}` would read as
 * valid). The refusal is a SyntaxError worded as JSON.parse words its own
 * ("… in JSON at position N"), so every caller's existing error path names the
 * file and the position without knowing about this rule.
 */
import { firstDuplicateKey } from './duplicate-keys.js';

export function parseStrictJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // Only an object can repeat a key; the scan is skipped for scalars (most --init values).
  if (typeof value === 'object' && value !== null) {
    const dup = firstDuplicateKey(text);
    if (dup !== null)
      throw new SyntaxError(`Duplicate key ${JSON.stringify(dup.key)} (first at position ${dup.firstOffset}) in JSON at position ${dup.offset}`);
  }
  return value;
}
