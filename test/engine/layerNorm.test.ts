import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { fusedLayerNorm } from '../../src/engine/kernels/LayerNorm.js';
import { layerNorm } from '../../src/model/index.js';

/** 6 rows of 771 (off the 4-lane tile), offset and scaled so that the mean matters. */
const ROWS = 6;
const COLS = 771;
const xs = Array.from({ length: ROWS * COLS }, (_, i) => 3 + 2 * Math.sin(i * 1.3) + (i % COLS === 0 ? 40 : 0));
const dys = xs.map((_, i) => Math.cos(i * 0.7));
const gains = Array.from({ length: COLS }, (_, c) => 1 + 0.1 * Math.sin(c));
const shifts = Array.from({ length: COLS }, (_, c) => 0.05 * Math.cos(c));

/** The model's LayerNorm and its gradients (x, gain, shift) against dy on `backend`, and the kernels it ran. */
async function layerNormOn(backend: 'wasm' | 'cpu') {
  await selectBackend(backend);
  const params = new Map([
    ['ln.weight', tf.variable(tf.tensor1d(gains))],
    ['ln.bias', tf.variable(tf.tensor1d(shifts))],
  ]);
  const x = tf.variable(tf.tensor2d(xs, [ROWS, COLS]));
  const dy = tf.tensor2d(dys, [ROWS, COLS]);
  let value: number[] = [];
  let grads: number[][] = [];
  const { kernelNames } = await tf.profile(() => {
    value = Array.from(tf.tidy(() => layerNorm(params, 'ln', x, 1e-12)).dataSync());
    const g = tf.variableGrads(() => tf.sum(tf.mul(layerNorm(params, 'ln', x, 1e-12), dy)), [x, ...params.values()]);
    grads = [x, ...params.values()].map((v) => Array.from(g.grads[v.name]!.dataSync()));
    tf.dispose([g.value, ...Object.values(g.grads)]);
  });
  tf.dispose([x, dy, ...params.values()]);
  return { value, grads, kernels: kernelNames };
}

describe("ppmlm's fused LayerNorm kernels", () => {
  it('give the value and the gradients of x, gain and shift of the tfjs composition on cpu, within float32 rounding, and run on wasm', async () => {
    const wasm = await layerNormOn('wasm');
    const cpu = await layerNormOn('cpu');
    expect(wasm.kernels).toContain('PpmlmLayerNorm');
    expect(wasm.kernels).toContain('PpmlmLayerNormGrad');
    expect(cpu.kernels).not.toContain('PpmlmLayerNorm');
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
