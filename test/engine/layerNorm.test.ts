import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { fusedLayerNorm } from '../../src/engine/kernels/LayerNorm.js';
import { layerNorm } from '../../src/model/index.js';
import { profiledOn } from '../helpers/profiled.js';

/** 6 rows of 771 (off the 4-lane tile), offset and scaled so that the mean matters. */
const ROWS = 6;
const COLS = 771;
const xs = Array.from({ length: ROWS * COLS }, (_, i) => 3 + 2 * Math.sin(i * 1.3) + (i % COLS === 0 ? 40 : 0));
const dys = xs.map((_, i) => Math.cos(i * 0.7));
const gains = Array.from({ length: COLS }, (_, c) => 1 + 0.1 * Math.sin(c));
const shifts = Array.from({ length: COLS }, (_, c) => 0.05 * Math.cos(c));

/** The model's LayerNorm and its gradients (x, gain, shift) against dy. */
function norm(): { value: number[]; grads: number[][] } {
  return tf.tidy(() => {
    const params = new Map([
      ['ln.weight', tf.variable(tf.tensor1d(gains))],
      ['ln.bias', tf.variable(tf.tensor1d(shifts))],
    ]);
    const x = tf.tensor2d(xs, [ROWS, COLS]);
    const dy = tf.tensor2d(dys, [ROWS, COLS]);
    const value = Array.from(layerNorm(params, 'ln', x, 1e-12).dataSync());
    const [gx, gGain, gShift] = tf.grads((t: tf.Tensor, g: tf.Tensor, s: tf.Tensor) =>
      tf.sum(tf.mul(layerNorm(new Map([['ln.weight', g as tf.Variable], ['ln.bias', s as tf.Variable]]), 'ln', t as tf.Tensor2D, 1e-12), dy)),
    )([x, params.get('ln.weight')!, params.get('ln.bias')!]);
    tf.dispose([...params.values()]);
    return { value, grads: [gx!, gGain!, gShift!].map((g) => Array.from(g.dataSync())) };
  });
}

describe("ppmlm's fused LayerNorm kernels", () => {
  it('give the value and the gradients of x, gain and shift of the tfjs composition on cpu, within float32 rounding, and run on wasm', async () => {
    const { result: wasm, kernels } = await profiledOn('wasm', norm);
    const { result: cpu, kernels: cpuKernels } = await profiledOn('cpu', norm);
    expect(kernels).toContain('PpmlmLayerNorm');
    expect(kernels).toContain('PpmlmLayerNormGrad');
    expect(cpuKernels).not.toContain('PpmlmLayerNorm');
    wasm.value.forEach((v, i) => expect(Math.abs(v - cpu.value[i]!)).toBeLessThan(1e-5));
    wasm.grads.forEach((g, k) => g.forEach((v, i) => expect(Math.abs(v - cpu.grads[k]![i]!)).toBeLessThan(2e-5 * (1 + Math.abs(v)))));
  });

  it('are absent on cpu: the caller composes from tfjs ops there', async () => {
    await selectBackend('cpu');
    const x = tf.tensor2d([1, 2], [1, 2]);
    expect(fusedLayerNorm(x, x.reshape([2]), x.reshape([2]), 1e-12)).toBeUndefined();
    x.dispose();
  });
});
