import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng, selectBackend, train, type BatchStep } from '../../src/engine/index.js';
import { mlmBatchLoss } from '../../src/mlm/loss.js';
import { defaultConfig, DROPOUT_STREAM, dropoutOf, initParams, parameterShapes, splitBatch, type PaddedBatch } from '../../src/model/index.js';

const config = defaultConfig({ vocab_size: 60, hidden_size: 32, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 64, max_position_embeddings: 64, hidden_dropout_prob: 0.1, attention_probs_dropout_prob: 0.1 });

/** Five windows of 12 tokens, the last two padded, with targets in every row but the fourth. */
function batch(): PaddedBatch {
  const rng = new Rng(7);
  const rows = 5;
  const seqLen = 12;
  const inputIds = Int32Array.from({ length: rows * seqLen }, () => 5 + rng.int(55));
  const attentionMask = Int32Array.from({ length: rows * seqLen }, (_, i) => (i % seqLen < (Math.floor(i / seqLen) >= 3 ? 8 : 12) ? 1 : 0));
  const positions = Int32Array.from([1, 4, 9, 13, 20, 26, 27, 31, 50, 53]);
  const labels = positions.map(() => 5 + rng.int(55));
  return { batchSize: rows, seqLen, inputIds, attentionMask, positions, labels };
}

/** One optimizer step from the same weights, on the batch whole or as micro-batches of `rows`; the weights after it. */
async function stepOn(rows: number, slotShift = 0): Promise<Float32Array[]> {
  const model = { config, params: initParams(parameterShapes(config), config, 3) };
  const b = batch();
  const dropout = (from: number, to: number) => dropoutOf(config, Array.from({ length: to - from }, (_, j) => new Rng(DROPOUT_STREAM).fork(from + j + slotShift)));
  const step: BatchStep = { tokens: b.batchSize * b.seqLen, targets: b.labels.length, protectedTargets: 0, ...mlmBatchLoss(model, b, rows, dropout) };
  await train(model.params, { batchesPerEpoch: 1, batch: () => step }, { epochs: 1, lr: LR, seed: 1, warmupRatio: 0, writeModel: async () => undefined });
  const weights = [...model.params.values()].map((p) => p.dataSync() as Float32Array);
  tf.dispose([...model.params.values()]);
  return weights;
}

const LR = 1e-2;
/** Largest difference between two sets of weights. */
const maxDiff = (a: Float32Array[], b: Float32Array[]) => Math.max(...a.map((w, i) => Math.max(...w.map((x, j) => Math.abs(x - b[i]![j]!)))));

describe('micro-batches (exact gradient accumulation within a batch)', () => {
  beforeAll(() => selectBackend('wasm'));

  it('splits a padded batch by rows, re-basing each part\'s targets', () => {
    const parts = splitBatch(batch(), 2);
    expect(parts.map((p) => p.batchSize)).toEqual([2, 2, 1]);
    expect(parts.map((p) => Array.from(p.positions))).toEqual([[1, 4, 9, 13, 20], [2, 3, 7], [2, 5]]);
    expect(parts.flatMap((p) => Array.from(p.labels))).toEqual(Array.from(batch().labels));
    expect(parts[2]!.inputIds).toEqual(batch().inputIds.slice(48));
  });

  it('leaves a part without targets out, and gives each part its weight', () => {
    const model = { config, params: initParams(parameterShapes(config), config, 3) };
    const { parts } = mlmBatchLoss(model, batch(), 1);
    // Row 3 (index 3) has no target.
    expect(parts!.map((p) => p.weight)).toEqual([3, 2, 3, 2]);
    tf.dispose([...model.params.values()]);
  });

  it('takes the step of the whole batch, dropout included, whatever the micro-batch size', async () => {
    const whole = await stepOn(5);
    // AdamW's first step moves each weight by about the learning rate: 1% of it is float noise, not a different gradient.
    for (const rows of [1, 2, 3]) expect(maxDiff(whole, await stepOn(rows))).toBeLessThan(LR / 100);
    // Other dropout masks give another step: the comparison sees a difference of that size.
    expect(maxDiff(whole, await stepOn(5, 1))).toBeGreaterThan(LR / 10);
  }, 60_000);
});
