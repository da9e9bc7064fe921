import type * as tf from '@tensorflow/tfjs-core';
import { updateVariable } from './heapView.js';

export interface AdamWOptions {
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  weightDecay?: number;
  /** Parameters exempt from weight decay (biases and LayerNorm, as in BERT). */
  noDecay?: (name: string) => boolean;
}

/** What a checkpoint saves of an AdamW optimizer: its moments by parameter name (host memory) and its step. */
export interface AdamWState {
  readonly m: Map<string, Float32Array>;
  readonly v: Map<string, Float32Array>;
  step: number;
}

export const defaultNoDecay = (name: string) => name.endsWith('.bias') || name.includes('LayerNorm') || name.includes('layer_norm');

/**
 * AdamW (Loshchilov & Hutter): Adam moments with bias correction, and weight decay applied to the
 * parameters directly (p -= lr * wd * p), not through the gradient.
 *
 * The moments live in JavaScript memory, outside the backend's heap: for a 110M-parameter model they are
 * 880 MB that wasm32's 4 GiB heap cannot spare. The update runs one parameter at a time, so the heap
 * never holds more than one parameter's worth of temporaries. State is exposed for checkpoints.
 */
export class AdamW implements AdamWState {
  readonly m = new Map<string, Float32Array>();
  readonly v = new Map<string, Float32Array>();
  step = 0;
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
    }
  }

  /** One update with gradients by parameter name, each multiplied by `gradScale`, at learning rate `lr`. */
  apply(grads: ReadonlyMap<string, Float32Array>, lr: number, gradScale = 1): void {
    this.step++;
    const { b1, b2, eps } = this;
    const c1 = 1 - b1 ** this.step;
    const c2 = 1 - b2 ** this.step;
    for (const [name, g] of grads) {
      const p = this.params.get(name);
      if (p === undefined) throw new RangeError(`gradient for ${name}, which is not a parameter`);
      const m = this.m.get(name)!;
      const v = this.v.get(name)!;
      if (g.length !== m.length) throw new RangeError(`gradient of ${name} has ${g.length} values, not ${m.length}`);
      const decay = this.noDecay(name) ? 1 : 1 - lr * this.wd;
      updateVariable(p, (values) => {
        for (let i = 0; i < values.length; i++) {
          const gi = g[i]! * gradScale;
          const mi = b1 * m[i]! + (1 - b1) * gi;
          const vi = b2 * v[i]! + (1 - b2) * gi * gi;
          m[i] = mi;
          v[i] = vi;
          values[i] = values[i]! * decay - (lr * (mi / c1)) / (Math.sqrt(vi / c2) + eps);
        }
      });
    }
  }

  /** Releases nothing in the backend (the state is JavaScript memory); kept so callers need not care. */
  dispose(): void {
    this.m.clear();
    this.v.clear();
  }
}
