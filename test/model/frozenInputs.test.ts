import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { gradientsOf } from '../helpers/gradients.js';
import { basePrefix, crossEntropy, defaultConfig, initParams, lossSegments, mlmLogits, parameterShapes, type Params } from '../../src/model/index.js';

const CONFIG = defaultConfig({ vocab_size: 40, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16 });
const WORDS = `${basePrefix(CONFIG)}.embeddings.word_embeddings.weight`;
// Two windows of 8 tokens: token 7 only at frozen positions, token 8 only at unfrozen ones.
const inputIds = Int32Array.from([2, 7, 8, 9, 7, 10, 11, 3, 2, 12, 7, 8, 13, 14, 3, 0]);
const frozenInputs = Uint8Array.from([0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
const attentionMask = Int32Array.from(inputIds, (id, i) => (i === 15 ? 0 : 1));
const positions = Int32Array.from([2, 5, 11, 12]);
const labels = Int32Array.from([8, 10, 8, 13]);
const batch = { batchSize: 2, seqLen: 8, inputIds, attentionMask, positions, labels };

const gradients = (params: Params, head: (h: tf.Tensor2D) => tf.Scalar, frozen: boolean, recompute: boolean) =>
  gradientsOf(params, lossSegments(params, CONFIG, frozen ? { ...batch, frozenInputs } : batch, head), recompute);
const row = (g: Float32Array, id: number) => Array.from(g.subarray(id * CONFIG.hidden_size, (id + 1) * CONFIG.hidden_size));

describe('frozen inputs (--freeze-protected-embeddings)', () => {
  it('cut the gradient into the word embedding rows read at frozen positions, and nothing else', async () => {
    await selectBackend('wasm');
    const params = initParams(parameterShapes(CONFIG), CONFIG, 5);
    // A head that never reads the decoder: the word embeddings learn only from the input side.
    const upstream = tf.tensor2d(Float32Array.from({ length: 16 * CONFIG.hidden_size }, (_, i) => Math.sin(i * 0.37)), [16, CONFIG.hidden_size]);
    const head = (h: tf.Tensor2D) => tf.sum(tf.mul(h, upstream)) as tf.Scalar;
    for (const recompute of [false, true]) {
      const open = gradients(params, head, false, recompute);
      const cut = gradients(params, head, true, recompute);
      expect(cut.loss).toBe(open.loss);
      expect(row(cut.grads.get(WORDS)!, 7).every((v) => v === 0)).toBe(true);
      expect(row(open.grads.get(WORDS)!, 7).some((v) => Math.abs(v) > 1e-6)).toBe(true);
      expect(row(cut.grads.get(WORDS)!, 8)).toEqual(row(open.grads.get(WORDS)!, 8));
      // The frozen tokens stay context: every other parameter gets the same gradient.
      for (const [name, g] of open.grads) if (name !== WORDS) expect(cut.grads.get(name), name).toEqual(g);
    }
  });

  it('leave the tied decoder path open: a frozen token still learns from the output side of the MLM loss', async () => {
    await selectBackend('wasm');
    const params = initParams(parameterShapes(CONFIG), CONFIG, 6);
    const head = (h: tf.Tensor2D) => crossEntropy(mlmLogits(params, CONFIG, h, tf.tensor1d(positions, 'int32')), tf.tensor1d(labels, 'int32'));
    const open = gradients(params, head, false, false);
    const cut = gradients(params, head, true, false);
    expect(cut.loss).toBe(open.loss);
    const [o, c] = [row(open.grads.get(WORDS)!, 7), row(cut.grads.get(WORDS)!, 7)];
    expect(c.some((v) => Math.abs(v) > 1e-7)).toBe(true);
    expect(c).not.toEqual(o);
  });
});
