import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { Rng } from '../../src/engine/random.js';
import { applyDropout, defaultConfig, dropoutOf, encode, initParams, parameterShapes } from '../../src/model/index.js';

describe('dropout', () => {
  it('zeroes about the given share and scales the rest by 1 / (1 − p), the same masks for the same seed', async () => {
    await selectBackend('wasm');
    const x = tf.ones([200, 100]);
    const a = applyDropout(x, 0.1, new Rng(5)).dataSync();
    const zeros = a.filter((v) => v === 0).length / a.length;
    expect(zeros).toBeGreaterThan(0.09);
    expect(zeros).toBeLessThan(0.11);
    expect(new Set(a)).toEqual(new Set([0, Math.fround(1 / 0.9)]));
    expect([...applyDropout(x, 0.1, new Rng(5)).dataSync()]).toEqual([...a]);
    expect([...applyDropout(x, 0.1, new Rng(6)).dataSync()]).not.toEqual([...a]);
    expect(applyDropout(x, 0, new Rng(5))).toBe(x);
    expect(() => applyDropout(x, 1, new Rng(5))).toThrow(RangeError);
  });

  it("is applied by the encoder only when given, reproducibly from its seed, and gradients flow through it", async () => {
    await selectBackend('wasm');
    const config = defaultConfig({ vocab_size: 20, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16 });
    const params = initParams(parameterShapes(config), config, 1);
    const batch = { inputIds: tf.tensor2d([[2, 5, 6, 7, 3]], [1, 5], 'int32'), attentionMask: tf.ones([1, 5], 'int32') as tf.Tensor2D };
    const plain = encode(params, config, batch).dataSync();
    expect([...encode(params, config, batch, { hidden: 0, attention: 0, rng: new Rng(1) }).dataSync()]).toEqual([...plain]);
    const dropped = encode(params, config, batch, dropoutOf(config, new Rng(1))).dataSync();
    expect([...dropped]).not.toEqual([...plain]);
    expect([...encode(params, config, batch, dropoutOf(config, new Rng(1))).dataSync()]).toEqual([...dropped]);
    const word = params.get('bert.embeddings.word_embeddings.weight')!;
    const grad = tf.grad((w: tf.Tensor) => {
      params.set('bert.embeddings.word_embeddings.weight', w as tf.Variable);
      return tf.sum(tf.square(encode(params, config, batch, dropoutOf(config, new Rng(1)))));
    })(word);
    params.set('bert.embeddings.word_embeddings.weight', word);
    expect(tf.norm(grad).dataSync()[0]).toBeGreaterThan(0);
  });

  it('with one generator per window, gives a window the same masks alone or in a padded batch with another', async () => {
    await selectBackend('wasm');
    const config = defaultConfig({ vocab_size: 20, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16 });
    const params = initParams(parameterShapes(config), config, 1);
    const a = [2, 5, 6, 7, 3];
    const b = [2, 8, 9, 10, 11, 12, 13, 3];
    const rngA = new Rng(11);
    const rngB = new Rng(12);
    const alone = encode(params, config, { inputIds: tf.tensor2d([a], [1, 5], 'int32'), attentionMask: tf.ones([1, 5], 'int32') as tf.Tensor2D }, dropoutOf(config, [rngA])).arraySync() as number[][];
    // In a batch after b, padded to 8 positions: a's rows must not change.
    const padded = [...a, 0, 0, 0];
    const both = encode(params, config, { inputIds: tf.tensor2d([b, padded], [2, 8], 'int32'), attentionMask: tf.tensor2d([[1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0, 0, 0]], [2, 8], 'int32') }, dropoutOf(config, [rngB, rngA])).arraySync() as number[][];
    for (let i = 0; i < a.length; i++) for (let h = 0; h < 16; h++) expect(both[8 + i]![h]!).toBeCloseTo(alone[i]![h]!, 5);
    // And the masks are there: another generator changes the output.
    const other = encode(params, config, { inputIds: tf.tensor2d([a], [1, 5], 'int32'), attentionMask: tf.ones([1, 5], 'int32') as tf.Tensor2D }, dropoutOf(config, [new Rng(13)])).arraySync() as number[][];
    expect(other[1]).not.toEqual(alone[1]);
  });
});
