import * as tf from '@tensorflow/tfjs-core';
import { Rng } from '../engine/random.js';
import type { EncoderConfig } from './config.js';

/** Parameters by Hugging Face name. Linear weights are held as [in, out] (see {@link isLinearWeight}). */
export type Params = Map<string, tf.Variable>;

/** The prefix of encoder weights: `bert.` or `roberta.`. */
export const basePrefix = (config: EncoderConfig) => (config.model_type === 'roberta' ? 'roberta' : 'bert');

/**
 * Hugging Face stores nn.Linear weights as [out, in]; ppmlm keeps them as [in, out] so the forward pass
 * is a plain matMul (the wasm backend runs transposed matMuls several times slower). They are transposed
 * on load and save.
 */
export function isLinearWeight(name: string): boolean {
  return name.endsWith('.weight') && !name.includes('LayerNorm') && !name.includes('layer_norm') && !name.includes('embeddings');
}

/**
 * The MLM decoder's weight: the word embeddings read transposed (tied, Hugging Face's default) or, with
 * `tie_word_embeddings: false`, a matrix of its own, held [hidden, vocab] like every linear weight.
 */
export function decoderWeight(config: EncoderConfig): { name: string; tied: boolean } {
  if (config.tie_word_embeddings !== false) return { name: `${basePrefix(config)}.embeddings.word_embeddings.weight`, tied: true };
  return { name: config.model_type === 'roberta' ? 'lm_head.decoder.weight' : 'cls.predictions.decoder.weight', tied: false };
}

/**
 * Gives a tied MLM head a decoder of its own, a copy of the word embeddings (so the model computes what it
 * did), and returns the config that says so; an untied model is returned as it is. From then on the word
 * embeddings learn only from the input side, the decoder only from the output side.
 */
export function untieDecoder(config: EncoderConfig, params: Params): EncoderConfig {
  if (config.tie_word_embeddings === false) return config;
  const words = params.get(decoderWeight(config).name);
  if (words === undefined) throw new Error('untieDecoder: the model has no word embeddings');
  const untied: EncoderConfig = { ...config, tie_word_embeddings: false };
  const copy = tf.transpose(words);
  params.set(decoderWeight(untied).name, tf.variable(copy, true));
  copy.dispose();
  return untied;
}

/** Shapes (as ppmlm holds them) of every parameter of an encoder with an MLM head. */
export function parameterShapes(config: EncoderConfig, head: 'mlm' | { tokenClassification: number } | { sequenceClassification: number } = 'mlm'): Map<string, number[]> {
  const H = config.hidden_size;
  const I = config.intermediate_size;
  const b = basePrefix(config);
  const shapes = new Map<string, number[]>();
  const ln = (p: string) => (shapes.set(`${p}.weight`, [H]), shapes.set(`${p}.bias`, [H]));
  const dense = (p: string, inDim: number, outDim: number) => (shapes.set(`${p}.weight`, [inDim, outDim]), shapes.set(`${p}.bias`, [outDim]));
  shapes.set(`${b}.embeddings.word_embeddings.weight`, [config.vocab_size, H]);
  shapes.set(`${b}.embeddings.position_embeddings.weight`, [config.max_position_embeddings, H]);
  shapes.set(`${b}.embeddings.token_type_embeddings.weight`, [config.type_vocab_size, H]);
  ln(`${b}.embeddings.LayerNorm`);
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `${b}.encoder.layer.${l}`;
    for (const m of ['query', 'key', 'value']) dense(`${p}.attention.self.${m}`, H, H);
    dense(`${p}.attention.output.dense`, H, H);
    ln(`${p}.attention.output.LayerNorm`);
    dense(`${p}.intermediate.dense`, H, I);
    dense(`${p}.output.dense`, I, H);
    ln(`${p}.output.LayerNorm`);
  }
  if (head === 'mlm') {
    const c = config.model_type === 'roberta' ? 'lm_head' : 'cls.predictions';
    const t = config.model_type === 'roberta' ? 'lm_head' : 'cls.predictions.transform';
    dense(`${t}.dense`, H, H);
    ln(config.model_type === 'roberta' ? 'lm_head.layer_norm' : `${t}.LayerNorm`);
    shapes.set(`${c}.bias`, [config.vocab_size]);
    const decoder = decoderWeight(config);
    if (!decoder.tied) shapes.set(decoder.name, [H, config.vocab_size]);
  } else if ('tokenClassification' in head) {
    dense('classifier', H, head.tokenClassification);
  } else {
    dense(`${b}.pooler.dense`, H, H);
    dense('classifier', H, head.sequenceClassification);
  }
  return shapes;
}

/** Random initialisation as Hugging Face does it: N(0, initializer_range), biases 0, LayerNorm 1/0, padding row 0. */
export function initParams(shapes: Map<string, number[]>, config: EncoderConfig, seed: number): Params {
  const rng = new Rng(seed);
  const params: Params = new Map();
  for (const [name, shape] of shapes) {
    const size = shape.reduce((a, d) => a * d, 1);
    const values = new Float32Array(size);
    if (name.includes('LayerNorm') || name.includes('layer_norm')) {
      if (name.endsWith('.weight')) values.fill(1);
    } else if (name.endsWith('.weight')) {
      for (let i = 0; i < size; i++) values[i] = rng.normal() * config.initializer_range;
      if (name.endsWith('word_embeddings.weight')) values.fill(0, config.pad_token_id * shape[1]!, (config.pad_token_id + 1) * shape[1]!);
    }
    // Unnamed: tfjs variable names are global, and two models (target and reference) coexist in an audit.
    const initial = tf.tensor(values, shape);
    params.set(name, tf.variable(initial, true));
    initial.dispose();
  }
  return params;
}

export function disposeParams(params: Params): void {
  for (const v of params.values()) v.dispose();
}
