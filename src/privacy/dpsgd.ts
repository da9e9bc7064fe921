import * as tf from '@tensorflow/tfjs-core';
import { addToSum, batchGradients, batchLoss, clearSums, GradientBuffer, onDevice, sumsNorm, type BatchStep, type ComputedGradient, type RandomSource } from '../engine/index.js';

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

/** One unit's contribution as {@link PrivateGradient.addUnit} reports it. */
export interface UnitContribution {
  /** Its examples' summed loss. */
  loss: number;
  /** The L2 norm of its contribution after clipping (at most C). */
  norm: number;
  clipped: boolean;
}

/**
 * DP-SGD's private gradient (Abadi et al. 2016) with the individual as the unit (McMahan et al. 2018):
 * each sampled unit's contribution is the sum of its examples' gradients, clipped to L2 norm C as one
 * vector, so one person changes the sum by at most C however many windows they wrote; the clipped
 * contributions are summed, Gaussian noise N(0, (σC)²) is added to every coordinate of every parameter
 * (also those no example touched), and the sum is divided by the expected number of units.
 *
 * Where the sums live follows the backend at construction: JS memory (GradientBuffer, reused across
 * releases) on wasm and cpu; tensors on a GPU backend (see `onDevice`), where the unit's norm, the clip
 * and the total are computed on the device and a unit reads back only its loss and norm. The noise is
 * drawn on the host from the release's {@link RandomSource} in both (the CSPRNG unless testing; a GPU's
 * seeded generators are no substitute) and uploaded, in the same order, so both backends release the
 * same values from the same generator.
 */
export class PrivateGradient {
  private readonly sums: ReleaseSums;

  constructor(
    readonly config: DpSgdConfig,
    readonly recompute = false,
  ) {
    this.sums = onDevice() ? new DeviceSums(config.clip, recompute) : new HostSums(config.clip, recompute);
  }

  /** Adds one unit's clipped contribution to the release's sum. */
  addUnit(params: ReadonlyMap<string, tf.Variable>, examples: readonly ExampleLoss[]): Promise<UnitContribution> {
    return this.sums.addUnit(params, examples);
  }

  /**
   * Ends the release: noise on the sum, division by the expected units, each parameter's gradient handed
   * to `add` (values on the host, a tensor the callee owns on a device). Resets the sum for the next release.
   */
  release(params: ReadonlyMap<string, tf.Variable>, rng: RandomSource, add: (name: string, g: ComputedGradient) => void): void {
    const { clip, noiseMultiplier, expectedUnits } = this.config;
    const std = noiseMultiplier * clip;
    const draw = () => std * rng.normal();
    for (const [name, v] of params) add(name, this.sums.noisy(name, v, draw, expectedUnits));
    this.sums.clear();
  }
}

/** Where one release's sums live: the unit's being clipped and the release's total. */
interface ReleaseSums {
  addUnit(params: ReadonlyMap<string, tf.Variable>, examples: readonly ExampleLoss[]): Promise<UnitContribution>;
  /** (total of `name` + one `draw()` per coordinate, in coordinate order) / expectedUnits. */
  noisy(name: string, v: tf.Variable, draw: () => number, expectedUnits: number): ComputedGradient;
  clear(): void;
}

/** Sums in JS memory: wasm32's heap holds only the gradients of the segment being differentiated. */
class HostSums implements ReleaseSums {
  private readonly unit = new GradientBuffer();
  private readonly total = new GradientBuffer();
  /** The total's filled sums during a release (looked up once per release, not once per parameter). */
  private filled: Map<string, Float32Array> | undefined;

  constructor(
    private readonly clip: number,
    private readonly recompute: boolean,
  ) {}

  addUnit(params: ReadonlyMap<string, tf.Variable>, examples: readonly ExampleLoss[]): Promise<UnitContribution> {
    this.unit.clear();
    let loss = 0;
    for (const e of examples) loss += batchGradients(e, params, (name, g) => this.unit.add(name, g), this.recompute);
    const sums = this.unit.collected();
    const norm = this.unit.norm();
    const scale = Math.min(1, this.clip / (norm + 1e-12));
    for (const [name, values] of sums) this.total.addValues(name, values, scale);
    return Promise.resolve({ loss, norm: norm * scale, clipped: scale < 1 });
  }

  noisy(name: string, v: tf.Variable, draw: () => number, expectedUnits: number): Float32Array {
    const sum = (this.filled ??= this.total.collected()).get(name);
    const out = new Float32Array(v.size);
    for (let i = 0; i < out.length; i++) out[i] = ((sum?.[i] ?? 0) + draw()) / expectedUnits;
    return out;
  }

  clear(): void {
    this.total.clear();
    this.filled = undefined;
  }
}

/** Sums as tensors on a GPU: a unit reads back its loss, norm and scale in one transfer, nothing else. */
class DeviceSums implements ReleaseSums {
  private readonly unit = new Map<string, tf.Tensor>();
  private readonly total = new Map<string, tf.Tensor>();

  constructor(
    private readonly clip: number,
    private readonly recompute: boolean,
  ) {}

  async addUnit(params: ReadonlyMap<string, tf.Variable>, examples: readonly ExampleLoss[]): Promise<UnitContribution> {
    const losses = examples.map((e) => batchLoss(e, params, (name, g) => addToSum(this.unit, name, g), this.recompute));
    if (this.unit.size === 0) {
      tf.dispose(losses);
      return { loss: 0, norm: 0, clipped: false };
    }
    const stats = tf.tidy(() => {
      const norm = sumsNorm(this.unit);
      const scale = tf.minimum(1, tf.div(this.clip, tf.add(norm, 1e-12)));
      for (const [name, g] of this.unit) addToSum(this.total, name, tf.mul(g, scale));
      return tf.stack([tf.addN(losses), tf.mul(norm, scale), scale]);
    });
    tf.dispose(losses);
    clearSums(this.unit);
    const [loss, norm, scale] = await stats.data();
    stats.dispose();
    return { loss: loss!, norm: norm!, clipped: scale! < 1 };
  }

  noisy(name: string, v: tf.Variable, draw: () => number, expectedUnits: number): tf.Tensor {
    const noise = new Float32Array(v.size);
    for (let i = 0; i < noise.length; i++) noise[i] = draw();
    const sum = this.total.get(name);
    return tf.tidy(() => {
      const noisy = tf.tensor(noise, v.shape, 'float32');
      return tf.div(sum === undefined ? noisy : tf.add(sum, noisy), expectedUnits);
    });
  }

  clear(): void {
    clearSums(this.total);
  }
}
