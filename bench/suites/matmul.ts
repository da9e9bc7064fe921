import * as tf from '@tensorflow/tfjs-core';
import { selectBackend } from '../../src/engine/index.js';
import { bestTime, type BenchRow, type BenchSuite } from '../table.js';

/** A product as the model computes it: operand shapes, transposes. */
interface Product {
  a: number[];
  b: number[];
  transposeA?: boolean;
  transposeB?: boolean;
}

const square = (n: number): Product => ({ a: [n, n], b: [n, n] });

async function gflops(backend: 'wasm' | 'cpu', p: Product): Promise<number> {
  await selectBackend(backend);
  const a = tf.randomNormal(p.a);
  const b = tf.randomNormal(p.b);
  const reps = backend === 'cpu' ? 1 : 10;
  let flops = 0;
  const seconds = await bestTime(() => {
    for (let i = 0; i < reps; i++) {
      // Not inside tf.tidy: tidy walks a returned TypedArray element by element looking for tensors.
      const c = tf.matMul(a, b, p.transposeA, p.transposeB);
      c.dataSync();
      flops = 2 * c.size * (p.transposeA ? p.a.at(-2)! : p.a.at(-1)!);
      c.dispose();
    }
  });
  tf.dispose([a, b]);
  return (reps * flops) / seconds / 1e9;
}

export const matmulSuite: BenchSuite = {
  name: 'matmul',
  async run(log) {
    const rows: BenchRow[] = [];
    let plain = 0;
    for (const n of [256, 512]) {
      log(`matmul ${n}x${n}`);
      const cpu = await gflops('cpu', square(n));
      const wasm = await gflops('wasm', square(n));
      plain = wasm;
      rows.push({ suite: 'matmul', case: `wasm ${n}x${n}·${n}x${n}`, value: wasm, unit: 'GFLOP/s', baseline: { name: 'tfjs cpu', value: cpu } });
    }
    // The products the stock wasm kernel ran on its generic path, now on ppmlm's native kernel, against
    // XNNPACK's plain 512x512 product measured above.
    const native: [string, Product][] = [
      ['attention scores 32 x [128x64]·[128x64]ᵀ', { a: [32, 128, 64], b: [32, 128, 64], transposeB: true }],
      ['attention context 32 x [128x128]·[128x64]', { a: [32, 128, 128], b: [32, 128, 64] }],
      ['weight gradient [2048x128]ᵀ·[2048x128]', { a: [2048, 128], b: [2048, 128], transposeA: true }],
    ];
    for (const [name, p] of native) {
      log(`matmul ${name}`);
      rows.push({ suite: 'matmul', case: `wasm ${name} (native kernel)`, value: await gflops('wasm', p), unit: 'GFLOP/s', baseline: { name: 'XNNPACK 512x512', value: plain } });
    }
    return rows;
  },
};
