/**
 * The seeded generator behind a fault rule's `probability` ("drawn
 * from a generator seeded by the rule's own `seed`, so runs repeat").
 * mulberry32: a small, well-known 32-bit generator (Tommy Ettinger's; the
 * same one test/http/robustness.test.ts seeds its cases with). Good enough
 * to spread draws evenly; not for anything secret.
 */

/** A generator of floats in [0, 1) from a 32-bit `seed`; the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
