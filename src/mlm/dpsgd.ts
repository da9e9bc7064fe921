import * as tf from '@tensorflow/tfjs-core';
import type { Rng } from '../engine/random.js';

export interface DpSgdConfig {
  /** Per-example L2 clipping norm C. */
  clip: number;
  /** Noise standard deviation as a multiple of C. */
  noiseMultiplier: number;
  /** Expected batch size (q·N): the noisy sum is divided by it. */
  expectedBatchSize: number;
}

/**
 * One DP-SGD gradient (Abadi et al. 2016): each example's gradient is computed on its own, clipped to L2
 * norm C over all parameters, the clipped gradients are summed, Gaussian noise N(0, (sigma·C)²) is added to
 * every coordinate, and the sum is divided by the expected batch size. Noise comes from the seeded `rng`,
 * so a resumed run draws the same noise.
 */
export function dpSgdGradients(
  params: ReadonlyMap<string, tf.Variable>,
  exampleLosses: readonly (() => tf.Scalar)[],
  config: DpSgdConfig,
  rng: Rng,
): { loss: number; grads: Map<string, tf.Tensor>; clippedShare: number } {
  const vars = [...params.entries()];
  const sums = new Map<string, tf.Tensor>(vars.map(([name, v]) => [name, tf.zerosLike(v)]));
  let lossSum = 0;
  let clipped = 0;
  for (const lossFn of exampleLosses) {
    const { value, grads } = tf.variableGrads(lossFn, vars.map(([, v]) => v));
    lossSum += value.dataSync()[0]!;
    value.dispose();
    const named = vars.map(([name, v]) => [name, grads[v.name]!] as const);
    const norm = Math.sqrt(tf.tidy(() => tf.addN(named.map(([, g]) => tf.sum(tf.square(g)))).dataSync()[0]!));
    const scale = Math.min(1, config.clip / (norm + 1e-12));
    if (scale < 1) clipped++;
    for (const [name, g] of named) {
      const next = tf.tidy(() => tf.add(sums.get(name)!, scale < 1 ? tf.mul(g, scale) : g));
      sums.get(name)!.dispose();
      g.dispose();
      sums.set(name, next);
    }
  }
  const std = config.noiseMultiplier * config.clip;
  const grads = new Map<string, tf.Tensor>();
  for (const [name, sum] of sums) {
    const noise = new Float32Array(sum.size);
    for (let i = 0; i < noise.length; i++) noise[i] = rng.normal() * std;
    grads.set(name, tf.tidy(() => tf.div(tf.add(sum, tf.tensor(noise, sum.shape)), config.expectedBatchSize)));
    sum.dispose();
  }
  return { loss: exampleLosses.length ? lossSum / exampleLosses.length : 0, grads, clippedShare: exampleLosses.length ? clipped / exampleLosses.length : 0 };
}

/** Poisson subsampling: every example joins the batch with probability q, as the accountant assumes. */
export function poissonSample(n: number, q: number, rng: Rng): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (rng.next() < q) out.push(i);
  return out;
}
