/**
 * FNV-1a string hashing, shared by the search (state-interner.ts buckets model
 * states) and the models (value hashes, kv's incremental hashes): its own file
 * so the models need not import the search.
 */
export const FNV_OFFSET = 0x811c9dc5 | 0;

/** FNV-1a over UTF-16 code units: fast, good enough to bucket states. */
export function stringHash(s: string): number {
  return fnvContinue(FNV_OFFSET, s);
}

/** FNV-1a continued from hash `h` over `s`: fnvContinue(stringHash(a), b) === stringHash(a + b). */
export function fnvContinue(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
