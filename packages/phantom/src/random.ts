import { prng } from '@emolens/engine';

/** Seeded randomness for scripts (the engine's mulberry32): the same seed gives the same script. */
export const seeded = prng;

/** A copy of `items` in a seeded order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
