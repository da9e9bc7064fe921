import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { attentionSoftmaxFused } from '../../src/engine/kernels/AttentionSoftmax.js';
import { setNativeKernelThreads } from '../../src/engine/kernels/native.js';
import { attentionProbabilities } from '../../src/model/encoder.js';
import { profiledOn } from '../helpers/profiled.js';

/**
 * Attention probabilities and their gradient against dy for scores [windows, heads, queries, keys]: the
 * first window has its last keys padded, the second none but a bias varying by key, the third is all padding.
 */
function probabilities(shape: [number, number, number, number], scale: number) {
  const [windows, , , keys] = shape;
  return tf.tidy(() => {
    const size = shape.reduce((a, b) => a * b, 1);
    const scores = tf.tensor4d(Array.from({ length: size }, (_, i) => 8 * Math.sin(i * 0.61)), shape);
    const dy = tf.tensor4d(Array.from({ length: size }, (_, i) => Math.cos(i * 1.3)), shape);
    const mask = Array.from({ length: windows * keys }, (_, i) => {
      const [w, k] = [Math.floor(i / keys), i % keys];
      return w === 2 || (w === 0 && k >= keys - 4) ? -1e9 : 0.3 * k * (w - 1);
    });
    const bias = tf.tensor4d(mask, [windows, 1, 1, keys]);
    const value = attentionProbabilities(scores, bias, scale);
    const grad = tf.grad((x: tf.Tensor) => tf.sum(tf.mul(attentionProbabilities(x as tf.Tensor4D, bias, scale), dy)))(scores);
    return { value: Array.from(value.dataSync()), grad: Array.from(grad.dataSync()) };
  });
}

describe("ppmlm's fused attention-softmax kernels", () => {
  it('give softmax(scores · scale + mask) and its gradient as the tfjs ops on cpu, padding at exactly zero', async () => {
    // 13 keys: rows off the 4-lane tile.
    const shape: [number, number, number, number] = [3, 2, 5, 13];
    const { result: wasm, kernels } = await profiledOn('wasm', () => probabilities(shape, 0.37));
    const { result: cpu, kernels: cpuKernels } = await profiledOn('cpu', () => probabilities(shape, 0.37));
    expect(kernels).toEqual(expect.arrayContaining(['PpmlmAttentionSoftmax', 'PpmlmAttentionSoftmaxGrad']));
    expect(kernels).not.toContain('Softmax');
    expect(cpuKernels).toContain('Softmax');
    wasm.value.forEach((v, i) => expect(Math.abs(v - cpu.value[i]!)).toBeLessThan(1e-6));
    wasm.grad.forEach((g, i) => expect(Math.abs(g - cpu.grad[i]!)).toBeLessThan(1e-6));
    const row = (w: number, h: number, q: number) => wasm.value.slice(((w * 2 + h) * 5 + q) * 13, ((w * 2 + h) * 5 + q + 1) * 13);
    // A padded key gets no weight at all; each row sums to one; an all-padding window is uniform, as in tfjs.
    expect(row(0, 1, 3).slice(9)).toEqual([0, 0, 0, 0]);
    expect(row(1, 0, 2).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    row(2, 1, 4).forEach((p) => expect(p).toBeCloseTo(1 / 13, 6));
  });

  it('split rows over the helper threads without changing a value (the mask found by each row, not by thread)', async () => {
    // 3 · 4 · 50 · 130 = 78,000 scores: above the threaded kernels' threshold.
    const shape: [number, number, number, number] = [3, 4, 50, 130];
    await selectBackend('wasm');
    setNativeKernelThreads(2);
    let wasm: ReturnType<typeof probabilities>;
    try {
      wasm = probabilities(shape, 0.125);
    } finally {
      setNativeKernelThreads(1);
    }
    await selectBackend('cpu');
    const cpu = probabilities(shape, 0.125);
    wasm.value.forEach((v, i) => expect(Math.abs(v - cpu.value[i]!)).toBeLessThan(1e-6));
    wasm.grad.forEach((g, i) => expect(Math.abs(g - cpu.grad[i]!)).toBeLessThan(1e-6));
  });

  it('are absent on cpu, where the tfjs ops run', async () => {
    await selectBackend('cpu');
    const x = tf.zeros([1, 1, 2, 2]);
    expect(attentionSoftmaxFused(x)).toBe(false);
    x.dispose();
  });
});

describe('the bias add on wasm (a row vector added to every row)', () => {
  it('adds like the cpu backend either way round, and leaves other broadcasts and int32 to the backend', async () => {
    const data = (shape: number[], seed: number) => Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.29 + seed));
    const cases: [number[], number[], 'float32' | 'int32'][] = [
      [[7, 13], [13], 'float32'],
      [[13], [2, 3, 13], 'float32'],
      [[5, 6], [1, 6], 'float32'],
      [[600, 130], [130], 'float32'],
      [[4, 6], [4, 1], 'float32'],
      [[4, 6], [4, 6], 'float32'],
      [[3, 5], [5], 'int32'],
    ];
    const run = () =>
      cases.map(([sa, sb, dtype]) =>
        tf.tidy(() => {
          const sum = tf.add(tf.tensor(data(sa, 1).map((v) => (dtype === 'int32' ? Math.round(9 * v) : v)), sa, dtype), tf.tensor(data(sb, 2).map((v) => (dtype === 'int32' ? Math.round(9 * v) : v)), sb, dtype));
          return { shape: sum.shape, values: Array.from(sum.dataSync()) };
        }),
      );
    await selectBackend('cpu');
    const cpu = run();
    await selectBackend('wasm');
    setNativeKernelThreads(2);
    try {
      expect(run()).toEqual(cpu);
    } finally {
      setNativeKernelThreads(1);
    }
  });
});
