/**
 * Trains a freshly initialised encoder of the given shape for a few steps with ppmlm's trainer (the same
 * path as `ppmlm finetune`: loss segments, the memory plan, AdamW outside the heap) in a fresh process, so
 * that its peak RSS is its own. Prints JSON: seconds of each step, inference tokens/s (the median forward pass with the MLM head), peak RSS, heap.
 * Usage: trainStepWorker.ts HIDDEN LAYERS VOCAB SEQ BATCH STEPS [BACKEND (default auto)] [micro-batches|recompute (default: the plan's)]
 */
import * as tf from '@tensorflow/tfjs-core';
import { selectBackend, train, type BackendRequest } from '../../src/engine/index.js';
import { mlmBatchLoss } from '../../src/mlm/loss.js';
import { encode, mlmLogits, type LargeBatchStrategy } from '../../src/model/index.js';
import { benchModel } from './benchModel.js';
import { peakRssMB } from '../peakRss.js';

const [hidden, layers, vocab, seq, batch, steps] = process.argv.slice(2, 8).map(Number) as [number, number, number, number, number, number];
const { adapter } = await selectBackend((process.argv[8] ?? 'auto') as BackendRequest);
const { config, model, memory, randomBatch } = benchModel(hidden, layers, vocab, seq, batch, process.argv[9] as LargeBatchStrategy | undefined);

const stepSeconds: number[] = [];
let last = performance.now();
await train(
  model.params,
  {
    batchesPerEpoch: steps,
    batch(_epoch, index) {
      const b = randomBatch(index);
      return { tokens: batch * seq, targets: b.labels.length, protectedTargets: 0, ...mlmBatchLoss(model, b, memory.microBatch) };
    },
  },
  {
    epochs: 1,
    lr: 1e-4,
    seed: 1,
    recompute: memory.recompute,
    writeModel: async () => undefined,
    onLog: () => {
      const now = performance.now();
      stepSeconds.push((now - last) / 1000);
      last = now;
    },
  },
);
const inputs = randomBatch(0);
/** Forward passes timed for inference, each on its own: the median is robust to a neighbour's burst on a shared machine. */
const INFER_PASSES = 10;
// The same work as PyTorch's forward (bench/baselines/torch_bert.py): the encoder, then the MLM head's logits
// at the target positions, left where they were computed as PyTorch leaves its tensor. Their sum is read
// back asynchronously (the only way on webgpu), so that the time includes the whole pass; copying the
// logits out would time this machine's page faults on a fresh 10 MB buffer instead.
const infer = async () => {
  const total = tf.tidy(() => {
    const hidden = encode(model.params, config, { inputIds: tf.tensor2d(inputs.inputIds, [batch, seq], 'int32'), attentionMask: tf.tensor2d(inputs.attentionMask, [batch, seq], 'int32') });
    return tf.sum(mlmLogits(model.params, config, hidden, tf.tensor1d(inputs.positions, 'int32')));
  });
  await total.data();
  total.dispose();
};
await infer();
const passes: number[] = [];
for (let i = 0; i < INFER_PASSES; i++) {
  const t0 = performance.now();
  await infer();
  passes.push((performance.now() - t0) / 1000);
}
const inferTokensPerSecond = (batch * seq) / [...passes].sort((a, b) => a - b)[Math.floor(INFER_PASSES / 2)]!;
const heap = (tf.backend() as unknown as { wasm?: { HEAPU8: Uint8Array } }).wasm?.HEAPU8.length;
console.log(JSON.stringify({ stepSeconds, inferTokensPerSecond, peakRssMB: peakRssMB(), heapMB: heap === undefined ? undefined : heap / 2 ** 20, recompute: memory.recompute, microBatch: memory.microBatch, parameters: memory.parameters / 4, adapter }));
