import { randomFillSync } from 'node:crypto';
import type { RandomSource } from '../engine/index.js';

/**
 * Uniforms and normals from the operating system's CSPRNG (node:crypto): what DP-SGD's sampling and noise
 * must draw from. Noise from a seeded generator is reproducible, and whoever can rerun training on two
 * neighbouring datasets with the recorded seed tells them apart (epsilon = infinity; Opacus' secure_mode
 * exists for this). Bytes are fetched in blocks to keep the cost of a draw low.
 */
export class SecureRng implements RandomSource {
  private readonly words = new Uint32Array(8192);
  private pos = this.words.length;

  private word(): number {
    if (this.pos === this.words.length) {
      randomFillSync(this.words);
      this.pos = 0;
    }
    return this.words[this.pos++]!;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  next(): number {
    return ((this.word() >>> 5) * 67108864 + (this.word() >>> 6)) / 9007199254740992;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller on 53-bit uniforms). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
