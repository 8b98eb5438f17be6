/**
 * The seeded randomness of the nemesis. Every random choice (which half a node
 * lands in, the order of the ring) goes through an `Rng` passed in by the
 * caller, so one seed reproduces the same faults. The run's one PRNG is
 * src/random/prng.ts: pass `prng.asRng()`.
 */

/** A source of floats in [0, 1). */
export type Rng = () => number;

/** A shuffled copy (Fisher-Yates). */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
