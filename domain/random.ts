// Seeded uniform randomness shared by the simulator (api/sim/random.ts) and the statistics of domain/analytics
// (bootstrap resampling that must give the same interval every time for the same data and seed).

const TWO_POW_32 = 4294967296;

/** mulberry32: tiny, fast, passes the usual smoke tests; uniform in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / TWO_POW_32;
  };
}
