/**
 * Trains a freshly initialised encoder of the given shape for a few steps with ppmlm's trainer (the same
 * path as `ppmlm finetune`: loss segments, the memory plan, AdamW outside the heap) in a fresh process, so
 * that its peak RSS is its own. Prints JSON: seconds of each step, inference tokens/s, peak RSS, heap.
 * Usage: trainStepWorker.ts HIDDEN LAYERS VOCAB SEQ BATCH STEPS [BACKEND (default auto)]
 */
import * as tf from '@tensorflow/tfjs-core';
import { Rng, selectBackend, train, type BackendRequest } from '../../src/engine/index.js';
import { mlmLossSegments } from '../../src/mlm/loss.js';
import { checkTrainingMemory, defaultConfig, encode, initParams, parameterShapes } from '../../src/model/index.js';
import { peakRssMB } from '../peakRss.js';

const [hidden, layers, vocab, seq, batch, steps] = process.argv.slice(2, 8).map(Number) as [number, number, number, number, number, number];
const { adapter } = await selectBackend((process.argv[8] ?? 'auto') as BackendRequest);
const config = defaultConfig({ vocab_size: vocab, hidden_size: hidden, num_hidden_layers: layers, num_attention_heads: Math.max(1, hidden / 64), intermediate_size: 4 * hidden, max_position_embeddings: Math.max(512, seq) });
const model = { config, params: initParams(parameterShapes(config), config, 1) };
const memory = checkTrainingMemory(config, { batchSize: batch, seqLen: seq, targetShare: 0.15, outputs: vocab });

/** Random windows with 15% of positions as targets, different for every step. */
function randomBatch(index: number) {
  const rng = new Rng(index + 1);
  const inputIds = Int32Array.from({ length: batch * seq }, () => 5 + rng.int(vocab - 5));
  const positions = Int32Array.from({ length: Math.round(0.15 * batch * seq) }, (_, i) => Math.floor(i / 0.15));
  const labels = positions.map(() => 5 + rng.int(vocab - 5));
  return { batchSize: batch, seqLen: seq, inputIds, attentionMask: new Int32Array(batch * seq).fill(1), positions, labels };
}

const stepSeconds: number[] = [];
let last = performance.now();
await train(
  model.params,
  {
    batchesPerEpoch: steps,
    batch(_epoch, index) {
      const b = randomBatch(index);
      return { tokens: batch * seq, targets: b.labels.length, protectedTargets: 0, segments: mlmLossSegments(model, b) };
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
// Read back asynchronously (the only way on webgpu), so that the time includes the whole forward pass.
const infer = async () => {
  const h = tf.tidy(() => encode(model.params, config, { inputIds: tf.tensor2d(inputs.inputIds, [batch, seq], 'int32'), attentionMask: tf.tensor2d(inputs.attentionMask, [batch, seq], 'int32') }));
  await h.data();
  h.dispose();
};
await infer();
const t0 = performance.now();
for (let i = 0; i < 2; i++) await infer();
const inferTokensPerSecond = (2 * batch * seq) / ((performance.now() - t0) / 1000);
const heap = (tf.backend() as unknown as { wasm?: { HEAPU8: Uint8Array } }).wasm?.HEAPU8.length;
console.log(JSON.stringify({ stepSeconds, inferTokensPerSecond, peakRssMB: peakRssMB(), heapMB: heap === undefined ? undefined : heap / 2 ** 20, recompute: memory.recompute, parameters: memory.parameters / 4, adapter }));
