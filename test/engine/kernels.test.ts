import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { selectBackend } from '../../src/engine/index.js';
import { setNativeKernelThreads, splitProduct } from '../../src/engine/kernels/native.js';

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

describe('native matmul over several threads', () => {
  it('splits a product into parts of equal work: by batch when there are enough, else by 4-row tiles', () => {
    expect(splitProduct(2, 1, 8, 8, 8)).toEqual([{ t0: 0, t1: 1, i0: 0, i1: 8 }]);
    expect(splitProduct(2, 64, 128, 128, 64)).toEqual([{ t0: 0, t1: 32, i0: 0, i1: 128 }, { t0: 32, t1: 64, i0: 0, i1: 128 }]);
    expect(splitProduct(3, 1, 2048, 128, 128).map((p) => [p.i0, p.i1])).toEqual([[0, 680], [680, 1364], [1364, 2048]]);
    expect(splitProduct(4, 1, 10, 1000, 1000).map((p) => [p.i0, p.i1])).toEqual([[0, 4], [4, 8], [8, 10]]);
    expect(splitProduct(1, 64, 128, 128, 64)).toHaveLength(1);
  });

  it('gives the cpu backend\'s products when split by rows and by batch over helper threads', async () => {
    const data = (shape: number[], seed: number) => Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.11 + seed));
    const cases: [number[], number[], boolean, boolean][] = [
      [[1, 262, 130], [1, 130, 67], false, false],
      [[130, 262], [67, 130], true, true],
      [[3, 40, 100], [3, 100, 300], false, false],
      [[5, 100, 40], [1, 300, 100], true, true],
    ];
    for (const [sa, sb, ta, tb] of cases) {
      const run = () => tf.tidy(() => Array.from(tf.matMul(tf.tensor(data(sa, 1), sa), tf.tensor(data(sb, 2), sb), ta, tb).dataSync()));
      const cpu = await on('cpu', run);
      await selectBackend('wasm');
      setNativeKernelThreads(3);
      try {
        run().forEach((v, i) => expect(v).toBeCloseTo(cpu[i]!, 3));
      } finally {
        setNativeKernelThreads(1);
      }
    }
  });
});

describe('native kernels on the single-threaded wasm build', () => {
  it('load the module for an unshared heap and compute the same products and sums', async () => {
    const script = `
      import * as tf from '@tensorflow/tfjs-core';
      import { selectBackend, setWasmThreads } from './src/engine/index.js';
      setWasmThreads(1);
      await selectBackend('wasm');
      const a = tf.tensor3d(Array.from({ length: 2 * 9 * 5 }, (_, i) => Math.sin(i)), [2, 9, 5]);
      const b = tf.tensor3d(Array.from({ length: 2 * 11 * 5 }, (_, i) => Math.cos(i)), [2, 11, 5]);
      const shared = tf.backend().wasm.wasmMemory !== undefined;
      console.log(JSON.stringify({ shared, product: Array.from(tf.matMul(a, b, false, true).dataSync()), sum: Array.from(tf.sum(a, [0, 1]).dataSync()) }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).catch((err: Error & { stderr?: string }) => {
      throw new Error(`the single-threaded run failed: ${(err.stderr ?? err.message).split('\n').filter((l) => l.length < 300).slice(-5).join('\n')}`);
    });
    const single = JSON.parse(stdout.trim().split('\n').at(-1)!) as { shared: boolean; product: number[]; sum: number[] };
    expect(single.shared).toBe(false);
    const a = Array.from({ length: 90 }, (_, i) => Math.sin(i));
    const b = Array.from({ length: 110 }, (_, i) => Math.cos(i));
    const product = [0, 1].flatMap((t) => Array.from({ length: 9 * 11 }, (_, idx) => {
      const [r, c] = [Math.floor(idx / 11), idx % 11];
      return Array.from({ length: 5 }, (_, p) => a[t * 45 + r * 5 + p]! * b[t * 55 + c * 5 + p]!).reduce((x, y) => x + y, 0);
    }));
    single.product.forEach((v, i) => expect(v).toBeCloseTo(product[i]!, 4));
    single.sum.forEach((v, c) => expect(v).toBeCloseTo(Array.from({ length: 18 }, (_, r) => a[r * 5 + c]!).reduce((x, y) => x + y, 0), 4));
  });
});
