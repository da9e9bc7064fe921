import * as tf from '@tensorflow/tfjs-core';
import { selectBackend } from '../../src/engine/index.js';
import { bestTime, type BenchSuite } from '../table.js';

async function gflops(backend: 'wasm' | 'cpu', n: number): Promise<number> {
  await selectBackend(backend);
  const a = tf.randomNormal([n, n]);
  const b = tf.randomNormal([n, n]);
  const reps = backend === 'cpu' ? 1 : 10;
  const seconds = await bestTime(() => {
    for (let i = 0; i < reps; i++) {
      // Not inside tf.tidy: tidy walks a returned TypedArray element by element looking for tensors.
      const c = tf.matMul(a, b);
      c.dataSync();
      c.dispose();
    }
  });
  tf.dispose([a, b]);
  return (reps * 2 * n ** 3) / seconds / 1e9;
}

export const matmulSuite: BenchSuite = {
  name: 'matmul',
  async run(log) {
    const rows = [];
    for (const n of [256, 512]) {
      log(`matmul ${n}x${n}`);
      const cpu = await gflops('cpu', n);
      const wasm = await gflops('wasm', n);
      rows.push({ suite: 'matmul', case: `wasm ${n}x${n}·${n}x${n}`, value: wasm, unit: 'GFLOP/s', baseline: { name: 'tfjs cpu', value: cpu } });
    }
    return rows;
  },
};
