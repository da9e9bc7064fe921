import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { Rng, selectBackend } from '../../src/engine/index.js';
import { mlmEvalLoss, randomPool, type TrainingWindow } from '../../src/mlm/index.js';
import { defaultConfig, initParams, parameterShapes } from '../../src/model/index.js';

const MASK = { probability: 0.3, maskId: 4, randomPool: randomPool(60, new Set([0, 1, 2, 3, 4])), padId: 0 };

/** [CLS] n random tokens [SEP]; `protect` marks every body token protected. */
function window(rng: Rng, n: number, protect: boolean): TrainingWindow {
  const ids = Int32Array.from([2, ...Array.from({ length: n }, () => 5 + rng.int(55)), 3]);
  const special = Uint8Array.from(ids, (_, i) => (i === 0 || i === n + 1 ? 1 : 0));
  return { doc: 0, ids, special, protectedMask: Uint8Array.from(special, (s) => (protect ? 1 - s : 0)), words: Int32Array.from(ids, (_, i) => (special[i] ? -1 : i - 1)) };
}

async function tinyModel() {
  await selectBackend('cpu');
  const config = defaultConfig({ vocab_size: 60, hidden_size: 16, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 32 });
  return { config, params: initParams(parameterShapes(config, 'mlm'), config, 1) };
}

describe('mlmEvalLoss', () => {
  it('scores the same fixed targets on every call and for any batch size, without leaking tensors', async () => {
    const model = await tinyModel();
    const rng = new Rng(3);
    const windows = Array.from({ length: 7 }, (_, i) => window(rng, 6 + i, false));
    const evaluate = mlmEvalLoss(model, windows, { masking: 'standard', mask: MASK, batchSize: 3, seed: 9 });
    const before = tf.memory().numTensors;
    const loss = await evaluate();
    expect(tf.memory().numTensors).toBe(before);
    // A random 60-token model: cross-entropy near ln 60.
    expect(loss).toBeGreaterThan(3);
    expect(loss).toBeLessThan(5);
    expect(await evaluate()).toBe(loss);
    for (const batchSize of [1, 7]) expect(await mlmEvalLoss(model, windows, { masking: 'standard', mask: MASK, batchSize, seed: 9 })()).toBeCloseTo(loss, 5);
    expect(await mlmEvalLoss(model, windows, { masking: 'standard', mask: MASK, batchSize: 3, seed: 10 })()).not.toBe(loss);
  });

  it('masks as the training strategy does: constrained never targets a protected position', async () => {
    const model = await tinyModel();
    const rng = new Rng(4);
    const windows = Array.from({ length: 4 }, () => window(rng, 10, true));
    expect(Number.isFinite(await mlmEvalLoss(model, windows, { masking: 'standard', mask: MASK, batchSize: 2, seed: 1 })())).toBe(true);
    // Every body token is protected, so constrained has no target left to score.
    expect(await mlmEvalLoss(model, windows, { masking: 'constrained', mask: MASK, batchSize: 2, seed: 1 })()).toBeNaN();
  });
});
