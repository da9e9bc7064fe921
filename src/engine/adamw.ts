import * as tf from '@tensorflow/tfjs-core';

export interface AdamWOptions {
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  weightDecay?: number;
  /** Parameters exempt from weight decay (biases and LayerNorm, as in BERT). */
  noDecay?: (name: string) => boolean;
}

export const defaultNoDecay = (name: string) => name.endsWith('.bias') || name.includes('LayerNorm') || name.includes('layer_norm');

/**
 * AdamW (Loshchilov & Hutter): Adam moments with bias correction, and weight decay applied to the
 * parameters directly (p -= lr * wd * p), not through the gradient. State is exposed for checkpoints.
 */
export class AdamW {
  readonly m = new Map<string, tf.Variable>();
  readonly v = new Map<string, tf.Variable>();
  step = 0;
  private readonly b1: number;
  private readonly b2: number;
  private readonly eps: number;
  private readonly wd: number;
  private readonly noDecay: (name: string) => boolean;

  constructor(
    private readonly params: Map<string, tf.Variable>,
    options: AdamWOptions = {},
  ) {
    this.b1 = options.beta1 ?? 0.9;
    this.b2 = options.beta2 ?? 0.999;
    this.eps = options.epsilon ?? 1e-8;
    this.wd = options.weightDecay ?? 0.01;
    this.noDecay = options.noDecay ?? defaultNoDecay;
    for (const [name, p] of params) {
      this.m.set(name, zerosVariable(p));
      this.v.set(name, zerosVariable(p));
    }
  }

  /** One update with gradients by parameter name, at learning rate `lr`. */
  apply(grads: Map<string, tf.Tensor>, lr: number): void {
    this.step++;
    const c1 = 1 - this.b1 ** this.step;
    const c2 = 1 - this.b2 ** this.step;
    tf.tidy(() => {
      for (const [name, g] of grads) {
        const p = this.params.get(name)!;
        const m = this.m.get(name)!;
        const v = this.v.get(name)!;
        const m1 = tf.add(tf.mul(m, this.b1), tf.mul(g, 1 - this.b1));
        const v1 = tf.add(tf.mul(v, this.b2), tf.mul(tf.square(g), 1 - this.b2));
        m.assign(m1);
        v.assign(v1);
        const update = tf.div(tf.div(m1, c1), tf.add(tf.sqrt(tf.div(v1, c2)), this.eps));
        const decayed = this.noDecay(name) || this.wd === 0 ? p : tf.mul(p, 1 - lr * this.wd);
        p.assign(tf.sub(decayed, tf.mul(update, lr)));
      }
    });
  }

  dispose(): void {
    for (const t of [...this.m.values(), ...this.v.values()]) t.dispose();
  }
}

/**
 * Scales gradients so their global L2 norm is at most `maxNorm`; returns the norm before clipping.
 * The caller owns (and disposes) the returned tensors.
 */
export function clipByGlobalNorm(grads: Map<string, tf.Tensor>, maxNorm: number): { grads: Map<string, tf.Tensor>; norm: number } {
  const norm = Math.sqrt(tf.tidy(() => tf.addN([...grads.values()].map((g) => tf.sum(tf.square(g)))).dataSync()[0]!));
  if (!(maxNorm > 0) || norm <= maxNorm) return { grads, norm };
  const scale = maxNorm / (norm + 1e-6);
  const out = new Map<string, tf.Tensor>();
  for (const [name, g] of grads) {
    out.set(name, tf.mul(g, scale));
    g.dispose();
  }
  return { grads: out, norm };
}

/** A variable of zeros shaped like `like`; the initial tensor is released (tf.variable copies it). */
function zerosVariable(like: tf.Tensor): tf.Variable {
  const zeros = tf.zerosLike(like);
  const v = tf.variable(zeros, false);
  zeros.dispose();
  return v;
}
