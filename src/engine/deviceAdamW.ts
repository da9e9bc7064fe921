import * as tf from '@tensorflow/tfjs-core';
import { defaultNoDecay, type AdamWOptions, type AdamWState } from './adamw.js';

/**
 * {@link AdamW}'s update run on the backend's device: moments are variables beside the parameters, and a
 * step uploads nothing but its scalars and reads nothing back. `m` and `v` are host copies for checkpoints,
 * brought up to date by {@link download} and pushed back by {@link upload} after a resume.
 */
export class DeviceAdamW implements AdamWState {
  readonly m = new Map<string, Float32Array>();
  readonly v = new Map<string, Float32Array>();
  step = 0;
  private readonly moments = new Map<string, { m: tf.Variable; v: tf.Variable }>();
  private readonly b1: number;
  private readonly b2: number;
  private readonly eps: number;
  private readonly wd: number;
  private readonly noDecay: (name: string) => boolean;

  constructor(
    private readonly params: ReadonlyMap<string, tf.Variable>,
    options: AdamWOptions = {},
  ) {
    this.b1 = options.beta1 ?? 0.9;
    this.b2 = options.beta2 ?? 0.999;
    this.eps = options.epsilon ?? 1e-8;
    this.wd = options.weightDecay ?? 0.01;
    this.noDecay = options.noDecay ?? defaultNoDecay;
    for (const [name, p] of params) {
      this.m.set(name, new Float32Array(p.size));
      this.v.set(name, new Float32Array(p.size));
      // In a tidy: a variable holds its own reference to the zeros, which are released.
      this.moments.set(name, tf.tidy(() => ({ m: tf.variable(tf.zeros(p.shape), false), v: tf.variable(tf.zeros(p.shape), false) })));
    }
  }

  /** One update with gradient tensors by parameter name, each multiplied by `gradScale`, at learning rate `lr`. */
  apply(grads: ReadonlyMap<string, tf.Tensor>, lr: number, gradScale = 1): void {
    this.step++;
    const { b1, b2, eps } = this;
    const c1 = 1 - b1 ** this.step;
    const c2 = 1 - b2 ** this.step;
    for (const [name, g] of grads) {
      const p = this.params.get(name);
      if (p === undefined) throw new RangeError(`gradient for ${name}, which is not a parameter`);
      if (g.size !== p.size) throw new RangeError(`gradient of ${name} has ${g.size} values, not ${p.size}`);
      const { m, v } = this.moments.get(name)!;
      const decay = this.noDecay(name) ? 1 : 1 - lr * this.wd;
      tf.tidy(() => {
        const gi = tf.mul(g, gradScale);
        const mi = tf.add(tf.mul(m, b1), tf.mul(gi, 1 - b1));
        const vi = tf.add(tf.mul(v, b2), tf.mul(tf.square(gi), 1 - b2));
        const stepSize = tf.div(tf.mul(mi, lr / c1), tf.add(tf.sqrt(tf.div(vi, c2)), eps));
        m.assign(mi);
        v.assign(vi);
        p.assign(tf.sub(tf.mul(p, decay), stepSize));
      });
    }
  }

  /** Copies the moments into `m` and `v` (before a checkpoint is written). */
  async download(): Promise<void> {
    for (const [name, { m, v }] of this.moments) {
      this.m.get(name)!.set((await m.data()) as Float32Array);
      this.v.get(name)!.set((await v.data()) as Float32Array);
    }
  }

  /** Copies `m` and `v` into the device's moments (after a checkpoint was read into them). */
  upload(): void {
    for (const [name, { m, v }] of this.moments) {
      tf.tidy(() => {
        m.assign(tf.tensor(this.m.get(name)!, m.shape));
        v.assign(tf.tensor(this.v.get(name)!, v.shape));
      });
    }
  }

  dispose(): void {
    for (const { m, v } of this.moments.values()) {
      m.dispose();
      v.dispose();
    }
    this.moments.clear();
    this.m.clear();
    this.v.clear();
  }
}
