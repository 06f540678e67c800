/**
 * Seeded pseudo-random numbers for the sandbox fleet. The seed must be reproducible (the same
 * anchor gives the same fleet), so nothing here touches Math.random.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next: () => number;
  /** Uniform in [min, max). */
  float(min: number, max: number): number;
  /** Uniform integer in [min, max], both ends included. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Gaussian (Box–Muller). */
  normal(mean: number, sd: number): number;
}

/** 32-bit FNV-1a over the parts, then a murmur3 finaliser so that nearby inputs spread apart. */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join("\u241f")) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: tiny, fast, and good enough for simulation noise (not for anything secret). */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    float: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error("pick() from an empty list");
      return items[Math.floor(next() * items.length)] as T;
    },
    normal(mean, sd) {
      const u = 1 - next(); // (0, 1]: log(0) would be -Infinity
      const v = next();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}

/** An Rng whose stream depends only on the given parts (e.g. vehicle and calendar day). */
export function rngFor(...parts: (string | number)[]): Rng {
  return createRng(hashSeed(...parts));
}
