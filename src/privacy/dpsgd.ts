import type * as tf from '@tensorflow/tfjs-core';
import { batchGradients, globalNorm, GradientBuffer, type BatchStep, type RandomSource } from '../engine/index.js';

/** Poisson subsampling: each of `n` units joins the release with probability q, independently (as the accountants assume). */
export function poissonSample(n: number, q: number, rng: RandomSource): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (rng.next() < q) out.push(i);
  return out;
}

/** A uniformly random subset of at most `max` items (a partial Fisher-Yates shuffle), in draw order. */
export function randomSubset<T>(items: readonly T[], max: number, rng: RandomSource): T[] {
  const pool = [...items];
  const k = Math.min(max, pool.length);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k);
}

/** One example's loss, as the trainer differentiates it (a closure or segments). */
export type ExampleLoss = Pick<BatchStep, 'loss' | 'segments'>;

export interface DpSgdConfig {
  /** L2 bound C on one unit's contribution (all its examples' gradients summed, over all parameters). */
  clip: number;
  /** Noise standard deviation as a multiple of C. */
  noiseMultiplier: number;
  /** Expected units per release (q · units): the noisy sum is divided by it. */
  expectedUnits: number;
}

/**
 * DP-SGD's private gradient (Abadi et al. 2016) with the individual as the unit (McMahan et al. 2018):
 * each sampled unit's contribution is the sum of its examples' gradients, clipped to L2 norm C as one
 * vector, so one person changes the sum by at most C however many windows they wrote; the clipped
 * contributions are summed, Gaussian noise N(0, (σC)²) is added to every coordinate of every parameter
 * (also those no example touched), and the sum is divided by the expected number of units. The sums live
 * in JS memory (GradientBuffer) and are reused across releases.
 */
export class PrivateGradient {
  private readonly unit = new GradientBuffer();
  private readonly total = new GradientBuffer();

  constructor(
    readonly config: DpSgdConfig,
    readonly recompute = false,
  ) {}

  /**
   * Adds one unit's clipped contribution to the release's sum; returns its examples' summed loss and the
   * L2 norm of its contribution after clipping (at most C).
   */
  addUnit(params: ReadonlyMap<string, tf.Variable>, examples: readonly ExampleLoss[]): { loss: number; norm: number; clipped: boolean } {
    this.unit.clear();
    let loss = 0;
    for (const e of examples) loss += batchGradients(e, params, (name, g) => this.unit.add(name, g), this.recompute);
    const sums = this.unit.collected();
    const norm = globalNorm(sums);
    const scale = Math.min(1, this.config.clip / (norm + 1e-12));
    for (const [name, values] of sums) this.total.addValues(name, values, scale);
    return { loss, norm: norm * scale, clipped: scale < 1 };
  }

  /**
   * Ends the release: noise on the sum, division by the expected units, each parameter's values handed
   * to `add`. Resets the sum for the next release.
   */
  release(params: ReadonlyMap<string, tf.Variable>, rng: RandomSource, add: (name: string, values: Float32Array) => void): void {
    const { clip, noiseMultiplier, expectedUnits } = this.config;
    const std = noiseMultiplier * clip;
    const filled = this.total.collected();
    for (const [name, v] of params) {
      const sum = filled.get(name);
      const out = new Float32Array(v.size);
      for (let i = 0; i < out.length; i++) out[i] = ((sum?.[i] ?? 0) + std * rng.normal()) / expectedUnits;
      add(name, out);
    }
    this.total.clear();
  }
}
