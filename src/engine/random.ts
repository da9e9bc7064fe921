/**
 * What a consumer of random numbers needs: the seeded {@link Rng} and the privacy module's CSPRNG-backed
 * generator both provide it, so DP sampling and noise can take either.
 */
export interface RandomSource {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal. */
  normal(): number;
}

/**
 * A seeded pseudo-random generator (mulberry32). Every random choice in ppmlm (initialisation, data
 * order, masking, surrogates) draws from one of these, never from Math.random.
 */
export class Rng implements RandomSource {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  /** Fisher-Yates shuffle, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }

  /** An independent generator derived from this one and a label (e.g. per epoch). */
  fork(label: number): Rng {
    return new Rng((Math.imul(this.s ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(label + 1, 0xc2b2ae35)) >>> 0);
  }
}
