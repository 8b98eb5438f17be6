/** Numbers for people: durations, shares and counted nouns. */

/** A duration as a person reads it: `45s`, `3m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** A share as a whole percentage: `67%`. */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** `1 run`, `3 runs`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
