import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';

async function on<T>(backend: 'wasm' | 'cpu', f: () => T): Promise<T> {
  await selectBackend(backend);
  return f();
}

describe('UnsortedSegmentSum on wasm', () => {
  it('matches the cpu backend, ignoring out-of-range segments', async () => {
    const run = () =>
      tf.tidy(() => Array.from(tf.unsortedSegmentSum(tf.tensor2d([1, 2, 3, 4, 5, 6, 7, 8], [4, 2]), tf.tensor1d([2, 0, 2, 5], 'int32'), 3).dataSync()));
    const wasm = await on('wasm', run);
    const cpu = await on('cpu', run);
    expect(wasm).toEqual(cpu);
    expect(wasm).toEqual([3, 4, 0, 0, 6, 8]);
  });

  it('gives gather (embedding lookup) the same gradient as cpu, and a numerically correct one', async () => {
    const table = Array.from({ length: 12 }, (_, i) => Math.sin(i));
    const ids = [3, 1, 3, 0];
    const weights = [0.5, -1, 2, 1.5, 0.25, -0.75, 1, 3];
    const loss = (t: tf.Tensor) => tf.sum(tf.mul(tf.gather(t, tf.tensor1d(ids, 'int32')), tf.tensor2d(weights, [4, 2])));
    const grad = () => tf.tidy(() => Array.from(tf.grad(loss)(tf.tensor2d(table, [6, 2])).dataSync()));
    const wasm = await on('wasm', grad);
    const cpu = await on('cpu', grad);
    expect(wasm).toEqual(cpu);
    await selectBackend('wasm');
    const h = 1e-2;
    for (let k = 0; k < table.length; k++) {
      const f = (d: number) => tf.tidy(() => loss(tf.tensor2d(table.map((v, i) => (i === k ? v + d : v)), [6, 2])).dataSync()[0]!);
      expect(wasm[k]).toBeCloseTo((f(h) - f(-h)) / (2 * h), 2);
    }
  });
});

describe('BatchMatMul on wasm (batched and transposed products through the fast path)', () => {
  it('matches the cpu backend for every transpose combination and batch broadcasting', async () => {
    const cases: [number[], number[], boolean, boolean][] = [
      [[3, 4, 5], [3, 5, 2], false, false],
      [[3, 5, 4], [3, 5, 2], true, false],
      [[3, 4, 5], [3, 2, 5], false, true],
      [[3, 5, 4], [3, 2, 5], true, true],
      [[1, 4, 5], [3, 5, 2], false, false],
      [[2, 3, 4, 5], [2, 3, 5, 6], false, false],
      [[7, 5], [6, 5], false, true],
      // Sizes off the kernel's 4 x 8 blocks, both broadcast directions, every transpose.
      ...[false, true].flatMap((ta) => [false, true].flatMap((tb): [number[], number[], boolean, boolean][] => [
        [ta ? [2, 19, 13] : [2, 13, 19], tb ? [1, 29, 19] : [1, 19, 29], ta, tb],
        [ta ? [1, 9, 1] : [1, 1, 9], tb ? [3, 17, 9] : [3, 9, 17], ta, tb],
        [ta ? [33, 6] : [6, 33], tb ? [11, 33] : [33, 11], ta, tb],
      ])),
    ];
    for (const [sa, sb, ta, tb] of cases) {
      const data = (shape: number[], seed: number) => Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 1.7 + seed));
      const run = () => tf.tidy(() => Array.from(tf.matMul(tf.tensor(data(sa, 1), sa), tf.tensor(data(sb, 2), sb), ta, tb).dataSync()));
      const wasm = await on('wasm', run);
      const cpu = await on('cpu', run);
      expect(wasm.length).toBe(cpu.length);
      wasm.forEach((v, i) => expect(v).toBeCloseTo(cpu[i]!, 4));
    }
  });
});

describe('BatchMatMul with empty operands', () => {
  it('returns an empty or zero product instead of failing in XNNPACK', async () => {
    await selectBackend('wasm');
    const r = tf.tidy(() => tf.matMul(tf.zeros([2, 0, 4]), tf.ones([2, 4, 3])));
    expect(r.shape).toEqual([2, 0, 3]);
    const z = tf.tidy(() => Array.from(tf.matMul(tf.zeros([2, 3, 0]), tf.ones([2, 0, 2])).dataSync()));
    expect(z).toEqual(new Array(12).fill(0));
  });
});

describe('Sum and GatherV2 on wasm (leading-axis sums and row lookups without the generic path)', () => {
  const data = (shape: number[], seed: number) => Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.37 + seed));

  it('sums over leading axes like the cpu backend, with keepDims, negative axes and inner-axis fallbacks', async () => {
    const cases: [number[], number | number[], boolean][] = [
      [[5, 7], 0, false],
      [[9, 21], -2, true],
      [[2, 3, 17], [0, 1], false],
      [[2, 3, 17], [1, 0], true],
      [[4, 6], 1, false],
      [[3, 4, 5], [0, 2], false],
      [[6], 0, false],
    ];
    for (const [shape, axis, keepDims] of cases) {
      const run = () => tf.tidy(() => {
        const s = tf.sum(tf.tensor(data(shape, 1), shape), axis, keepDims);
        return { shape: s.shape, values: Array.from(s.dataSync()) };
      });
      const wasm = await on('wasm', run);
      const cpu = await on('cpu', run);
      expect(wasm.shape).toEqual(cpu.shape);
      wasm.values.forEach((v, i) => expect(v).toBeCloseTo(cpu.values[i]!, 4));
    }
  });

  it('gathers rows of float and int tables like the cpu backend, and rejects an index out of range', async () => {
    const run = () => tf.tidy(() => {
      const ids = tf.tensor2d([5, 0, 2, 2], [2, 2], 'int32');
      const rows = tf.gather(tf.tensor2d(data([6, 3], 2), [6, 3]), ids);
      const ints = tf.gather(tf.tensor1d([10, 11, 12, 13, 14, 15], 'int32'), ids);
      const columns = tf.gather(tf.tensor2d(data([6, 3], 2), [6, 3]), tf.tensor1d([2, 0], 'int32'), 1);
      return [rows, ints, columns].map((t) => ({ shape: t.shape, values: Array.from(t.dataSync()) }));
    });
    const wasm = await on('wasm', run);
    expect(wasm).toEqual(await on('cpu', run));
    expect(wasm[1]!.values).toEqual([15, 10, 12, 12]);
    await selectBackend('wasm');
    expect(() => tf.tidy(() => tf.gather(tf.ones([3, 2]), tf.tensor1d([3], 'int32')))).toThrow(/index value 3 is not in \[0, 2\]/);
  });
});
