import fc from "fast-check";

/**
 * Every property test draws from a fixed seed, so a run is repeatable and CI cannot fail on a draw no one
 * can replay (a 1-in-60 flake of the fuzz test was seen with a new seed each run). `FUZZ_SEED=<n>`
 * explores other draws; a failing property prints the seed and path that reproduce it. A test that
 * passes its own `seed` keeps it.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_261_129);
fc.configureGlobal({ seed: FUZZ_SEED });
