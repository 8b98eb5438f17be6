/**
 * Strings kept from a long history's lines, detached from the text they were
 * cut from, and the repeated ones shared.
 *
 * Why: in V8 a substring of 13 or more characters is a view of the string it
 * was cut from (a sliced string), and a line is itself cut from a read chunk
 * of 1 MiB. So one kept value held its whole chunk alive, and a long kv
 * history held its file on top of its operations: 28 of the 100 MB its
 * 200,000 operations took. And every op's key and f were strings of their
 * own. With values detached and keys and fs shared, a 1,000,000-op kv
 * history on 64 keys peaks at 894 MB instead of 1,113 MB (npm run
 * bench:check, before and after in the same runs).
 */

/** Below this length V8 copies a substring instead of making a view of it. */
const SLICE_MIN_LENGTH = 13;

/**
 * A copy of `s` that keeps nothing else alive. Why this way: prepending a
 * character makes a cons string, which slicing flattens into a new flat
 * string (the copy); the slice then views that copy only. (A JSON round trip
 * copies too, scanning twice.)
 */
export function detached(s: string): string {
  return s.length < SLICE_MIN_LENGTH ? s : (' ' + s).slice(1);
}

/**
 * One shared copy of each string seen (keys, f names), detached. Bounded:
 * past `max` distinct strings (a history whose keys never repeat gains
 * nothing from sharing), new ones are only detached.
 */
export class StringPool {
  private readonly pool = new Map<string, string>();

  constructor(private readonly max = 1 << 16) {}

  shared(s: string): string {
    const known = this.pool.get(s);
    if (known !== undefined) return known;
    const copy = detached(s);
    if (this.pool.size < this.max) this.pool.set(copy, copy);
    return copy;
  }
}
