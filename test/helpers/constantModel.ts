import * as tf from '@tensorflow/tfjs-core';
import { defaultConfig, initParams, parameterShapes, type EncoderModel } from '../../src/model/index.js';
import type { Tokenizer } from '../../src/tokenizer/index.js';

/** A model that predicts `token` at every position whatever the input: all weights 0, output bias one-hot. */
export function constantModel(token: string, tokenizer: Tokenizer): EncoderModel {
  const V = tokenizer.vocabSize;
  const config = defaultConfig({ vocab_size: V, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 16, max_position_embeddings: 32 });
  const params = initParams(parameterShapes(config), config, 0);
  for (const [name, v] of params) {
    const bias = name === 'cls.predictions.bias' ? tf.oneHot([tokenizer.idOf(token)!], V).reshape([V]).mul(10) : tf.zerosLike(v);
    v.assign(bias as tf.Tensor);
    bias.dispose();
  }
  return { config, params, head: 'mlm' };
}
