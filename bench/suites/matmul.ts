import * as tf from '@tensorflow/tfjs-core';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { productEngine, selectBackend } from '../../src/engine/index.js';
import { bestTime, type BenchRow, type BenchSuite } from '../table.js';

const run = promisify(execFile);

/** A product as the model computes it: operand shapes, transposes. */
export interface Product {
  a: number[];
  b: number[];
  transposeA?: boolean;
  transposeB?: boolean;
  /** Through tfjs's fused matMul, whose wasm kernel is still XNNPACK's (ppmlm sends plain matMuls elsewhere). */
  xnnpack?: boolean;
}

const square = (n: number): Product => ({ a: [n, n], b: [n, n] });

export async function gflops(backend: 'wasm' | 'cpu', p: Product): Promise<number> {
  await selectBackend(backend);
  const a = tf.randomNormal(p.a);
  const b = tf.randomNormal(p.b);
  const reps = backend === 'cpu' ? 1 : 10;
  let flops = 0;
  const seconds = await bestTime(() => {
    for (let i = 0; i < reps; i++) {
      // Not inside tf.tidy: tidy walks a returned TypedArray element by element looking for tensors.
      const c = p.xnnpack ? tf.fused.matMul({ a: a as tf.Tensor2D, b: b as tf.Tensor2D }) : tf.matMul(a, b, p.transposeA, p.transposeB);
      c.dataSync();
      flops = 2 * c.size * (p.transposeA ? p.a.at(-2)! : p.a.at(-1)!);
      c.dispose();
    }
  });
  tf.dispose([a, b]);
  return (reps * flops) / seconds / 1e9;
}

const FMA_ROUNDS = 3;

export const matmulSuite: BenchSuite = {
  name: 'matmul',
  async run(log) {
    const rows: BenchRow[] = [];
    // In this process the products go wherever ppmlm sends them: OpenBLAS where it is installed.
    const kernel = productEngine().engine === 'blas' ? 'OpenBLAS' : 'native kernel';
    let plain: number;
    for (const n of [256, 512]) {
      log(`matmul ${n}x${n}`);
      const cpu = await gflops('cpu', square(n));
      const wasm = await gflops('wasm', square(n));
      rows.push({ suite: 'matmul', case: `wasm ${n}x${n}·${n}x${n} (${kernel})`, value: wasm, unit: 'GFLOP/s', baseline: { name: 'tfjs cpu', value: cpu } });
    }
    // An encoder's dense layers (BERT-base, 1024 tokens): ppmlm's native kernel, which now takes every
    // product, against XNNPACK on the same shape (which keeps a packed copy of every weight it multiplies by).
    const dense: [string, number[], number[]][] = [
      ['[1024x768]·[768x768]', [1024, 768], [768, 768]],
      ['[1024x768]·[768x3072]', [1024, 768], [768, 3072]],
      ['[1024x3072]·[3072x768]', [1024, 3072], [3072, 768]],
    ];
    for (const [name, a, b] of dense) {
      log(`matmul ${name}`);
      const xnnpack = await gflops('wasm', { a, b, xnnpack: true });
      rows.push({ suite: 'matmul', case: `wasm dense ${name} (${kernel})`, value: await gflops('wasm', { a, b }), unit: 'GFLOP/s', baseline: { name: 'XNNPACK same shape', value: xnnpack } });
    }
    // The products the stock wasm kernel ran on its generic path, on ppmlm's native kernel, against
    // XNNPACK's plain 512x512 product.
    plain = await gflops('wasm', { ...square(512), xnnpack: true });
    const native: [string, Product][] = [
      ['attention scores 32 x [128x64]·[128x64]ᵀ', { a: [32, 128, 64], b: [32, 128, 64], transposeB: true }],
      ['attention context 32 x [128x128]·[128x64]', { a: [32, 128, 128], b: [32, 128, 64] }],
      ['weight gradient [2048x128]ᵀ·[2048x128]', { a: [2048, 128], b: [2048, 128], transposeA: true }],
    ];
    for (const [name, p] of native) {
      log(`matmul ${name}`);
      rows.push({ suite: 'matmul', case: `wasm ${name} (${kernel})`, value: await gflops('wasm', p), unit: 'GFLOP/s', baseline: { name: 'XNNPACK 512x512', value: plain } });
    }
    // The kernel's two builds on the dense shapes, each in its own process (the build is chosen once per
    // process), alternating: relaxed SIMD's fused multiply-add against plain SIMD's multiply then add.
    const builds: { fma: number[]; plain: number[] }[] = dense.map(() => ({ fma: [], plain: [] }));
    for (let round = 0; round < FMA_ROUNDS; round++) {
      log(`matmul dense shapes, relaxed-SIMD FMA against plain SIMD, round ${round + 1} of ${FMA_ROUNDS}`);
      for (const build of ['fma', 'plain'] as const) {
        const { stdout } = await run(process.execPath, ['--import', 'tsx', join('bench', 'workers', 'matmulWorker.ts'), JSON.stringify(dense.map(([, a, b]) => ({ a, b })))], {
          env: { ...process.env, PPMLM_BLAS: 'off', PPMLM_WASM_FMA: build === 'fma' ? 'on' : 'off' },
        });
        (JSON.parse(stdout) as number[]).forEach((g, i) => builds[i]![build].push(g));
      }
    }
    dense.forEach(([name], i) => {
      const { fma, plain } = builds[i]!;
      const ratios = fma.map((f, r) => f / plain[r]!);
      const mid = ratios.indexOf([...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)]!);
      rows.push({ suite: 'matmul', case: `wasm dense ${name} (native kernel, relaxed-SIMD FMA)`, value: fma[mid]!, unit: 'GFLOP/s', baseline: { name: 'plain SIMD same shape', value: plain[mid]! }, note: `median of ${ratios.length} alternating rounds, spread ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x` });
    });
    return rows;
  },
};
