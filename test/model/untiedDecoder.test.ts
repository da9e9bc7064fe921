import * as tf from '@tensorflow/tfjs-core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../src/engine/index.js';
import { gradientsOf } from '../helpers/gradients.js';
import { FormatError } from '../../src/errors.js';
import { basePrefix, crossEntropy, decoderWeight, encode, loadModelDir, lossSegments, mlmLogits, parseSafetensors, saveModelDir, untieDecoder, validateConfig, type EncoderModel } from '../../src/model/index.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';

const ids = [
  [2, 17, 35, 18, 15, 11, 32, 33, 18, 3],
  [2, 12, 21, 12, 10, 33, 3, 0, 0, 0],
];
const mask = ids.map((r, i) => r.map((_, k) => (i === 1 && k > 6 ? 0 : 1)));
const positions = [2, 4, 13];
const labels = [35, 15, 21];

function logits(model: EncoderModel): Float32Array {
  return tf.tidy(() => {
    const hidden = encode(model.params, model.config, { inputIds: tf.tensor2d(ids, [2, 10], 'int32'), attentionMask: tf.tensor2d(mask, [2, 10], 'int32') });
    return mlmLogits(model.params, model.config, hidden, tf.tensor1d(positions, 'int32')).dataSync() as Float32Array;
  });
}

function wordGradient(model: EncoderModel): Float32Array {
  const head = (h: tf.Tensor2D) => crossEntropy(mlmLogits(model.params, model.config, h, tf.tensor1d(positions, 'int32')), tf.tensor1d(labels, 'int32'));
  const batch = { batchSize: 2, seqLen: 10, inputIds: Int32Array.from(ids.flat()), attentionMask: Int32Array.from(mask.flat()), positions: Int32Array.from(positions), labels: Int32Array.from(labels) };
  return gradientsOf(model.params, lossSegments(model.params, model.config, batch, head), false).grads.get(`${basePrefix(model.config)}.embeddings.word_embeddings.weight`)!;
}

describe('untied MLM decoder (--untie-decoder, tie_word_embeddings: false)', () => {
  it.each(['bert', 'roberta'] as const)('%s: untying keeps the logits, cuts the output side from the word embeddings, and survives a save and a load in the Hugging Face layout', async (type) => {
    await selectBackend('cpu');
    const { model, tokenizer } = await loadModelDir(join(FIXTURES, 'parity', type), 'mlm');
    const tiedLogits = logits(model);
    const tiedGradient = wordGradient(model);
    model.config = untieDecoder(model.config, model.params);
    expect(model.config.tie_word_embeddings).toBe(false);
    const decoder = decoderWeight(model.config);
    expect(decoder).toEqual({ name: type === 'bert' ? 'cls.predictions.decoder.weight' : 'lm_head.decoder.weight', tied: false });
    expect(model.params.get(decoder.name)!.shape).toEqual([model.config.hidden_size, model.config.vocab_size]);
    expect(Array.from(logits(model))).toEqual(Array.from(tiedLogits));
    // A token that is no input of the batch (id 5) gets a gradient only through a tied decoder.
    const H = model.config.hidden_size;
    const row = (g: Float32Array, id: number) => Array.from(g.subarray(id * H, (id + 1) * H));
    expect(row(tiedGradient, 5).some((v) => v !== 0)).toBe(true);
    expect(row(wordGradient(model), 5).every((v) => v === 0)).toBe(true);
    // Saved as Hugging Face does: [vocab, hidden] under the decoder's name, and the config flag.
    const dir = join(await tempDir(), 'untied');
    await saveModelDir(dir, model, tokenizer, { ppmlm: 'test', createdAt: 'now' });
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')).tie_word_embeddings).toBe(false);
    const { tensors } = parseSafetensors(await readFile(join(dir, 'model.safetensors')), 'model.safetensors');
    expect(tensors.get(decoder.name)!.shape).toEqual([model.config.vocab_size, H]);
    const reloaded = await loadModelDir(dir, 'mlm');
    expect(reloaded.initialized).toEqual([]);
    const again = logits(reloaded.model);
    tiedLogits.forEach((v, i) => expect(again[i]).toBeCloseTo(v, 5));
    // Untying an untied model changes nothing.
    expect(untieDecoder(reloaded.model.config, reloaded.model.params)).toBe(reloaded.model.config);
  });

  it('refuses a tie_word_embeddings that is not a boolean, naming the field', () => {
    expect(() => validateConfig({ model_type: 'bert', vocab_size: 10, hidden_size: 4, num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 8, max_position_embeddings: 8, tie_word_embeddings: 'no' }, 'm/config.json')).toThrow(FormatError);
    expect(() => validateConfig({ model_type: 'bert', vocab_size: 10, hidden_size: 4, num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 8, max_position_embeddings: 8, tie_word_embeddings: 'no' }, 'm/config.json')).toThrow(/"tie_word_embeddings" must be true or false/);
  });
});
