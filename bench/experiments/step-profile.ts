/**
 * Where one training step's time goes, by kernel (tf.profile), on the CPU path: matrix products,
 * elementwise kernels, the rest, and what runs outside kernels (AdamW in JavaScript, reading gradients
 * out of the heap). Run it with and without a BLAS to see the split move:
 *   npx tsx bench/experiments/step-profile.ts [HIDDEN LAYERS VOCAB SEQ BATCH]          (default BERT-base, batch 8 x 128)
 *   PPMLM_BLAS=off npx tsx bench/experiments/step-profile.ts
 * Prints one Markdown table. The worker's warm-up step is not profiled.
 */
import * as tf from '@tensorflow/tfjs-core';
import { productEngine, selectBackend, train } from '../../src/engine/index.js';
import { mlmBatchLoss } from '../../src/mlm/loss.js';
import { benchModel } from '../workers/benchModel.js';

const [hidden, layers, vocab, seq, batch] = (process.argv.length > 2 ? process.argv.slice(2, 7) : ['768', '12', '30522', '128', '8']).map(Number) as [number, number, number, number, number];
const { name, threads } = await selectBackend('wasm');
const { model, memory, randomBatch } = benchModel(hidden, layers, vocab, seq, batch);
const oneStep = () =>
  train(model.params, { batchesPerEpoch: 1, batch: (_e, i) => ({ tokens: batch * seq, targets: 1, protectedTargets: 0, ...mlmBatchLoss(model, randomBatch(i), memory.microBatch) }) }, { epochs: 1, lr: 1e-4, seed: 1, recompute: memory.recompute, writeModel: async () => undefined });

await oneStep();
const t0 = performance.now();
const profile = await tf.profile(async () => {
  await oneStep();
});
const stepMs = performance.now() - t0;
const groups = new Map<string, number>();
const byKernel = new Map<string, number>();
const PRODUCTS = /MatMul/;
const FUSED = /^Ppmlm(Gelu|LayerNorm)/;
const ELEMENTWISE = /^(Add|AddN|Sub|Mul|RealDiv|Div|Exp|Log|Erf|Sqrt|Rsqrt|Square|SquaredDifference|Neg|Maximum|Minimum|Tanh|Sigmoid|Softmax|Relu|Cast|Pow|Select|SelectV2|Greater|Less|GreaterEqual|LessEqual|Equal|LogicalAnd|Reciprocal|Abs|Sign|Step|ZerosLike|OnesLike|Fill)$/;
for (const k of profile.kernels) {
  const group = PRODUCTS.test(k.name) ? 'matrix products' : ELEMENTWISE.test(k.name) ? 'elementwise' : FUSED.test(k.name) ? "ppmlm's fused GELU and LayerNorm" : k.name === 'Sum' || k.name === 'Max' || k.name === 'Mean' ? 'reductions' : 'other kernels (gather, transpose, slice, concat, ...)';
  groups.set(group, (groups.get(group) ?? 0) + (k.kernelTimeMs as number));
  byKernel.set(k.name, (byKernel.get(k.name) ?? 0) + (k.kernelTimeMs as number));
}
const kernelMs = [...groups.values()].reduce((a, b) => a + b, 0);
groups.set('outside kernels (AdamW in JavaScript, gradients out of the heap, tape)', stepMs - kernelMs);
const engine = productEngine();
console.log(`One training step, H${hidden}/L${layers} V${vocab} seq ${seq} batch ${batch}, ${name} backend, ${threads} threads, products by ${engine.engine === 'blas' ? 'OpenBLAS' : "ppmlm's wasm kernel"}; activation checkpointing ${memory.recompute ? 'on' : 'off'}; ${(stepMs / 1000).toFixed(1)} s`);
console.log('');
console.log('| part | ms | share |');
console.log('|---|---:|---:|');
for (const [g, ms] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`| ${g} | ${ms.toFixed(0)} | ${((100 * ms) / stepMs).toFixed(0)}% |`);
console.log('');
console.log(`Kernels over 2% of the step: ${[...byKernel].filter(([, ms]) => ms > 0.02 * stepMs).sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${((100 * ms) / stepMs).toFixed(0)}%`).join(', ')}`);
