/**
 * Seeded randomness: the same seed always yields the same draws. The CLI derives stable ids
 * from a file's text with it, and the synthetic session generators (test/generators) draw
 * every value from it. Pure: no global state, no I/O.
 */

/** A seeded PRNG: 32-bit state, one multiply-xorshift round per draw (mulberry32-style). */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers over a raw `() => number` in [0, 1). */
export class Rng {
  constructor(readonly next: () => number) {}

  static seeded(seed: number): Rng {
    return new Rng(createRng(seed));
  }

  /** Integer in [min, max], inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** `n` lowercase hex characters. */
  hex(n: number): string {
    let out = "";
    while (out.length < n) out += Math.floor(this.next() * 0x10000).toString(16).padStart(4, "0");
    return out.slice(0, n);
  }

  /** A UUID-shaped string (version nibble 4) drawn from this generator. */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
