import * as tf from '@tensorflow/tfjs-core';
import type { Rng } from '../engine/random.js';
import type { SegmentForward } from '../engine/segments.js';
import { fusedGelu, fusedGeluGrad } from '../engine/kernels/Gelu.js';
import { fusedLayerNorm, fusedLayerNormGrad } from '../engine/kernels/LayerNorm.js';
import { fusedCrossEntropy, fusedCrossEntropyGrad } from '../engine/kernels/CrossEntropy.js';
import { attentionSoftmaxFused, fusedAttentionSoftmax, fusedAttentionSoftmaxGrad } from '../engine/kernels/AttentionSoftmax.js';
import type { EncoderConfig } from './config.js';
import type { PaddedBatch } from './padding.js';
import { basePrefix, decoderWeight, type Params } from './params.js';

/** A batch of windows: token ids and attention mask, both [batch, seq] int32. */
export interface EncoderBatch {
  inputIds: tf.Tensor2D;
  attentionMask: tf.Tensor2D;
  /** See {@link PaddedBatch.frozenInputs}. */
  frozenInputs?: Uint8Array;
}

/**
 * Training-time dropout as BERT places it (embeddings, attention probabilities, the output of each
 * sub-layer before its residual), with the masks drawn from `rng` so that a step is reproducible from its
 * seed, which resuming relies on.
 */
export interface Dropout {
  /** hidden_dropout_prob */
  hidden: number;
  /** attention_probs_dropout_prob */
  attention: number;
  /**
   * One generator for the batch, or one per batch row (window): each window's masks then depend on that
   * window alone, not on the batch it falls in or the batch's padding, so accumulated micro-batches train
   * as one large batch.
   */
  rng: Rng | readonly Rng[];
}

/** XORed into a run's seed for its dropout masks, apart from the data order and masks that fork the same seed. */
export const DROPOUT_STREAM = 0x2545f491;

/** The config's dropout probabilities with a generator, for training. */
export function dropoutOf(config: EncoderConfig, rng: Rng | readonly Rng[]): Dropout {
  return { hidden: config.hidden_dropout_prob ?? 0, attention: config.attention_probs_dropout_prob ?? 0, rng };
}

/** Fills mask[from, to) with 0 or `scale`, each kept with probability limit / 65536. */
function drawMask(mask: Float32Array, from: number, to: number, rng: Rng, limit: number, scale: number): void {
  // Two 16-bit draws per generator call (keep rate exact to 1/131072): the masks are on the training step's path.
  for (let i = from; i < to; i += 2) {
    const bits = (rng.next() * 4294967296) >>> 0;
    if ((bits & 0xffff) < limit) mask[i] = scale;
    if (bits >>> 16 < limit && i + 1 < to) mask[i + 1] = scale;
  }
}

/**
 * Inverted dropout: zeroes each element with probability `rate` and scales the rest by 1 / (1 − rate).
 * The mask is drawn in JS and enters as a constant, drawn from the generator ppmlm seeds (a step must be
 * reproducible from its seed, which resuming relies on). With one generator per window (`rng` an array
 * over the batch's rows: x is [windows × positions, width] or [windows, heads, positions, width]), each
 * row of the last axis draws from its window's generator forked by the row's place in the window (head
 * and position, not an offset that padding would move), so a window's masks do not depend on its batch.
 */
export function applyDropout<T extends tf.Tensor>(x: T, rate: number, rng: Rng | readonly Rng[]): T {
  if (rate <= 0) return x;
  if (rate >= 1) throw new RangeError(`dropout probability ${rate} must be below 1`);
  const keep = 1 - rate;
  const mask = new Float32Array(x.size);
  const scale = 1 / keep;
  const limit = Math.round(keep * 65536);
  if (!Array.isArray(rng)) {
    drawMask(mask, 0, mask.length, rng as Rng, limit, scale);
  } else {
    const windows = rng.length;
    const width = x.shape.at(-1)!;
    const rowsPerWindow = x.size / width / windows;
    // [windows × positions, width]: a row is a position; [windows, heads, positions, width]: a head and a position.
    const positions = x.rank === 4 ? x.shape[2]! : rowsPerWindow;
    for (let w = 0; w < windows; w++) {
      for (let r = 0; r < rowsPerWindow; r++) {
        const from = (w * rowsPerWindow + r) * width;
        const key = Math.floor(r / positions) * 65536 + (r % positions);
        drawMask(mask, from, from + width, (rng[w] as Rng).fork(key), limit, scale);
      }
    }
  }
  return tf.mul(x, tf.tensor(mask, x.shape, 'float32')) as T;
}

function param(params: Params, name: string): tf.Variable {
  const p = params.get(name);
  if (p === undefined) throw new Error(`missing parameter ${name}`);
  return p;
}

/**
 * x·W + b for x [n, in], W [in, out]. A product and an add rather than tfjs's fused matMul, whose wasm
 * kernel is XNNPACK's (see engine/kernels/BatchMatMul.ts for why products avoid it).
 */
export function dense(params: Params, prefix: string, x: tf.Tensor2D): tf.Tensor2D {
  return tf.add(tf.matMul(x, param(params, `${prefix}.weight`) as tf.Tensor as tf.Tensor2D), param(params, `${prefix}.bias`));
}

/**
 * LayerNorm over the last axis with gain and shift. The gradient is written out (dx = rstd · (dx̂ −
 * mean(dx̂) − x̂ · mean(dx̂ · x̂)) with dx̂ = dy · gain) instead of left to autodiff through tf.moments,
 * which took about twice the kernels; `test/model/gradients.test.ts` checks it against autodiff. On wasm
 * both directions are ppmlm's fused kernels, which keep each row's mean and rstd instead of x̂.
 */
export function layerNorm(params: Params, prefix: string, x: tf.Tensor2D, eps: number): tf.Tensor2D {
  const fused = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [input, gain, shift, save] = args as [tf.Tensor2D, tf.Tensor1D, tf.Tensor1D, tf.GradSaveFunc];
    const native = fusedLayerNorm(input, gain, shift, eps);
    if (native !== undefined) {
      const [value, stats] = native;
      save([input, gain, stats]);
      return { value, gradFunc: (dy: tf.Tensor, [xs, g, st]: tf.Tensor[]) => fusedLayerNormGrad(xs!, g!, dy, st!)! };
    }
    const { mean, variance } = tf.moments(input, -1, true);
    const rstd = tf.rsqrt(tf.add(variance, eps));
    const normed = tf.mul(tf.sub(input, mean), rstd);
    save([normed, rstd, gain]);
    return {
      value: tf.add(tf.mul(normed, gain), shift),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [xhat, r, g] = saved as [tf.Tensor2D, tf.Tensor2D, tf.Tensor1D];
        const dxhat = tf.mul(dy, g);
        const centred = tf.sub(dxhat, tf.mean(dxhat, -1, true));
        const dx = tf.mul(r, tf.sub(centred, tf.mul(xhat, tf.mean(tf.mul(dxhat, xhat), -1, true))));
        return [dx, tf.sum(tf.mul(dy, xhat), 0), tf.sum(dy, 0)];
      },
    };
  });
  return fused(x, param(params, `${prefix}.weight`), param(params, `${prefix}.bias`)) as tf.Tensor2D;
}

const SQRT1_2 = Math.SQRT1_2;
const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/**
 * Exact GELU, x · Φ(x), with its derivative Φ(x) + x · φ(x) written out: on wasm one pass each of
 * ppmlm's fused kernels, keeping only x for the backward pass; elsewhere from tfjs ops, keeping Φ(x).
 */
const erfGelu = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [x, save] = args as [tf.Tensor, tf.GradSaveFunc];
  const fused = fusedGelu(x);
  if (fused !== undefined) {
    save([x]);
    return { value: fused, gradFunc: (dy: tf.Tensor, [input]: tf.Tensor[]) => fusedGeluGrad(input!, dy)! };
  }
  const cdf = tf.mul(0.5, tf.add(1, tf.erf(tf.mul(x, SQRT1_2))));
  save([x, cdf]);
  return {
    value: tf.mul(x, cdf),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [input, phi] = saved as [tf.Tensor, tf.Tensor];
      const pdf = tf.mul(tf.exp(tf.mul(tf.square(input), -0.5)), INV_SQRT_2PI);
      return tf.mul(dy, tf.add(phi, tf.mul(input, pdf)));
    },
  };
});

/** The activation of config.hidden_act: exact erf GELU, the tanh approximation (gelu_new), or ReLU. */
export function activation(kind: EncoderConfig['hidden_act'], x: tf.Tensor2D): tf.Tensor2D {
  if (kind === 'relu') return tf.relu(x);
  if (kind === 'gelu_new') {
    const inner = tf.mul(SQRT_2_OVER_PI, tf.add(x, tf.mul(0.044715, tf.pow(x, 3))));
    return tf.mul(tf.mul(0.5, x), tf.add(1, tf.tanh(inner)));
  }
  return erfGelu(x) as tf.Tensor2D;
}

/**
 * Position ids: 0..seq-1 for BERT; for RoBERTa padding_idx+1 onwards at non-padding tokens and
 * padding_idx at padding, as Hugging Face's create_position_ids_from_input_ids does.
 */
function positionIds(config: EncoderConfig, inputIds: tf.Tensor2D): tf.Tensor2D {
  const [b, s] = inputIds.shape;
  if (config.model_type !== 'roberta') return tf.tile(tf.reshape(tf.range(0, s, 1, 'int32'), [1, s]), [b, 1]) as tf.Tensor2D;
  const notPad = tf.cast(tf.notEqual(inputIds, config.pad_token_id), 'int32');
  return tf.cast(tf.add(tf.mul(tf.cumsum(notPad, 1), notPad), config.pad_token_id), 'int32') as tf.Tensor2D;
}

/**
 * Dropout of one part of the encoder: part 0 is the embeddings, parts 2l + 1 and 2l + 2 the attention and
 * feed-forward blocks of layer l. Each part draws from
 * its own fork of the generator (forking does not advance it), so a part computed twice — activation
 * checkpointing recomputes each layer — draws the same masks.
 */
function dropoutPart(dropout: Dropout | undefined, part: number) {
  const source = dropout?.rng;
  if (source === undefined) return <T extends tf.Tensor>(t: T): T => t;
  if (!Array.isArray(source)) {
    const rng = (source as Rng).fork(part);
    return <T extends tf.Tensor>(t: T, rate: number): T => applyDropout(t, rate, rng);
  }
  // Per window: the part's n-th dropout forks each window's generator by (part, n).
  let call = 0;
  return <T extends tf.Tensor>(t: T, rate: number): T => {
    const n = call++;
    return applyDropout(t, rate, (source as readonly Rng[]).map((r) => r.fork(part).fork(n)));
  };
}

/**
 * `x` unchanged forward; backward, its gradient zeroed at the rows where `frozen` is 1. Only the path through
 * `x` is cut: the same embedding row still learns from every other position, and from the tied decoder.
 */
function blockRowGradients(x: tf.Tensor2D, frozen: Uint8Array): tf.Tensor2D {
  const keep = tf.tensor2d(Float32Array.from(frozen, (f) => 1 - f), [frozen.length, 1]);
  const blocked = tf.customGrad((input, save) => {
    (save as tf.GradSaveFunc)([keep]);
    return { value: tf.clone(input as tf.Tensor2D), gradFunc: (dy, saved) => tf.mul(dy, saved[0]!) };
  });
  return blocked(x) as tf.Tensor2D;
}

/** Word + position + token-type embeddings, LayerNorm and dropout: [batch * seq, hidden]. */
function embeddings(params: Params, config: EncoderConfig, inputIds: tf.Tensor2D, dropout?: Dropout, frozenInputs?: Uint8Array): tf.Tensor2D {
  const [B, S] = inputIds.shape;
  const b = basePrefix(config);
  const gathered = tf.gather(param(params, `${b}.embeddings.word_embeddings.weight`), tf.reshape(inputIds, [B * S])) as tf.Tensor2D;
  const words = frozenInputs?.includes(1) ? blockRowGradients(gathered, frozenInputs) : gathered;
  const positions = tf.gather(param(params, `${b}.embeddings.position_embeddings.weight`), tf.reshape(positionIds(config, inputIds), [B * S]));
  const tokenType = tf.slice(param(params, `${b}.embeddings.token_type_embeddings.weight`), [0, 0], [1, config.hidden_size]);
  const summed = tf.add(tf.add(words, positions), tokenType) as tf.Tensor2D;
  return dropoutPart(dropout, 0)(layerNorm(params, `${b}.embeddings.LayerNorm`, summed, config.layer_norm_eps), dropout?.hidden ?? 0);
}

/** Additive attention mask [batch, 1, 1, seq]: 0 where attended, a large negative number at padding. */
function attentionBias(attentionMask: tf.Tensor2D): tf.Tensor4D {
  const [B, S] = attentionMask.shape;
  return tf.reshape(tf.mul(tf.sub(1, tf.cast(attentionMask, 'float32')), -1e9), [B, 1, 1, S]);
}

/**
 * softmax(scores · scale + bias) over the keys, for scores [batch, heads, queries, keys] and the padding
 * mask's bias [batch, 1, 1, keys]. On wasm one pass each way of ppmlm's fused kernels, keeping only the
 * output for the backward pass (as tfjs's softmax does); elsewhere tfjs's ops and their autodiff.
 */
export function attentionProbabilities(scores: tf.Tensor4D, bias: tf.Tensor4D, scale: number): tf.Tensor4D {
  if (!attentionSoftmaxFused(scores)) return tf.softmax(tf.add(tf.mul(scores, scale), bias) as tf.Tensor4D);
  const fused = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [x, save] = args as [tf.Tensor4D, tf.GradSaveFunc];
    const value = fusedAttentionSoftmax(x, bias, scale);
    save([value]);
    return { value, gradFunc: (dy: tf.Tensor, [y]: tf.Tensor[]) => fusedAttentionSoftmaxGrad(y!, dy, scale) };
  });
  return fused(scores) as tf.Tensor4D;
}

/** The attention block of layer l (post-LayerNorm, as BERT and RoBERTa): [batch * seq, hidden] in and out. */
function attentionBlock(params: Params, config: EncoderConfig, l: number, x: tf.Tensor2D, bias: tf.Tensor4D, dropout?: Dropout): tf.Tensor2D {
  const [B, , , S] = bias.shape;
  const H = config.hidden_size;
  const nh = config.num_attention_heads;
  const dh = H / nh;
  const drop = dropoutPart(dropout, 2 * l + 1);
  const p = `${basePrefix(config)}.encoder.layer.${l}`;
  const heads = (name: string) => tf.transpose(tf.reshape(dense(params, `${p}.attention.self.${name}`, x), [B, S, nh, dh]), [0, 2, 1, 3]);
  const q = heads('query');
  const k = heads('key');
  const v = heads('value');
  const probs = attentionProbabilities(tf.matMul(q, k, false, true), bias, 1 / Math.sqrt(dh));
  const context = tf.reshape(tf.transpose(tf.matMul(drop(probs, dropout?.attention ?? 0), v), [0, 2, 1, 3]), [B * S, H]) as tf.Tensor2D;
  return layerNorm(params, `${p}.attention.output.LayerNorm`, tf.add(drop(dense(params, `${p}.attention.output.dense`, context), dropout?.hidden ?? 0), x), config.layer_norm_eps);
}

/** The feed-forward block of layer l: [batch * seq, hidden] in and out. */
function feedForwardBlock(params: Params, config: EncoderConfig, l: number, x: tf.Tensor2D, dropout?: Dropout): tf.Tensor2D {
  const p = `${basePrefix(config)}.encoder.layer.${l}`;
  const drop = dropoutPart(dropout, 2 * l + 2);
  const inter = activation(config.hidden_act, dense(params, `${p}.intermediate.dense`, x));
  return layerNorm(params, `${p}.output.LayerNorm`, tf.add(drop(dense(params, `${p}.output.dense`, inter), dropout?.hidden ?? 0), x), config.layer_norm_eps);
}

/**
 * The encoder's last hidden states, [batch * seq, hidden] (flattened so heads can gather positions).
 * With `dropout` (training) masks are applied as in BERT; without it the encoder is deterministic.
 */
export function encode(params: Params, config: EncoderConfig, batch: EncoderBatch, dropout?: Dropout): tf.Tensor2D {
  const bias = attentionBias(batch.attentionMask);
  let x = embeddings(params, config, batch.inputIds, dropout, batch.frozenInputs);
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const input = x;
    // A tidy per layer: in inference only each layer's output outlives it (RoBERTa-large at batch 8 x 128
    // otherwise held every layer's intermediates, ~3.8 GB of a 4 GiB heap). Under a gradient tape the
    // tensors the tape saves are kept by tfjs, so this is safe there too.
    x = tf.tidy(() => feedForwardBlock(params, config, l, attentionBlock(params, config, l, input, bias, dropout), dropout));
  }
  return x;
}

/** The loss of a head over the encoder's hidden states [batch * seq, hidden]. */
export type HeadLoss = (hidden: tf.Tensor2D) => tf.Scalar;

/**
 * A training loss — the encoder, then `head` — as segments for the trainer: the embeddings, each layer's
 * attention and feed-forward blocks (two segments per layer halve the activations a recomputed segment
 * holds), then the head and its loss. Each segment makes its input tensors from the batch's arrays, so it can be
 * run again at any time (activation checkpointing) and the trainer owns no tensor of the batch.
 * Running the segments in order computes exactly what `head(encode(...))` does.
 */
export function lossSegments(params: Params, config: EncoderConfig, batch: Pick<PaddedBatch, 'batchSize' | 'seqLen' | 'inputIds' | 'attentionMask' | 'frozenInputs'>, head: HeadLoss, dropout?: Dropout): SegmentForward[] {
  const shape: [number, number] = [batch.batchSize, batch.seqLen];
  const layer = (l: number): SegmentForward[] => [
    (x) => attentionBlock(params, config, l, x as tf.Tensor2D, attentionBias(tf.tensor2d(batch.attentionMask, shape, 'int32')), dropout),
    (x) => feedForwardBlock(params, config, l, x as tf.Tensor2D, dropout),
  ];
  return [
    () => embeddings(params, config, tf.tensor2d(batch.inputIds, shape, 'int32'), dropout, batch.frozenInputs),
    ...Array.from({ length: config.num_hidden_layers }, (_, l) => layer(l)).flat(),
    (x) => head(x as tf.Tensor2D),
  ];
}

/**
 * Masked-LM logits at the given flat positions only ([positions, vocab]): the hidden states are gathered
 * before the transform and the vocabulary projection, which is where most of an MLM step's time goes.
 * The decoder is tied to the word embeddings unless the config unties it (see {@link decoderWeight}).
 */
export function mlmLogits(params: Params, config: EncoderConfig, hidden: tf.Tensor2D, positions: tf.Tensor1D): tf.Tensor2D {
  const roberta = config.model_type === 'roberta';
  const h = tf.gather(hidden, positions);
  const t = activation('gelu', dense(params, roberta ? 'lm_head.dense' : 'cls.predictions.transform.dense', h));
  const normed = layerNorm(params, roberta ? 'lm_head.layer_norm' : 'cls.predictions.transform.LayerNorm', t, config.layer_norm_eps);
  // A tied decoder is the embedding matrix read transposed in place: no [hidden, vocab] copy, and its
  // gradient comes out as [vocab, hidden] directly.
  const decoder = decoderWeight(config);
  return tf.add(tf.matMul(normed, param(params, decoder.name), false, decoder.tied), param(params, roberta ? 'lm_head.bias' : 'cls.predictions.bias'));
}

/**
 * Mean cross-entropy of logits [n, vocab] against label ids [n]. Forward and gradient are fused by hand:
 * the gradient is (softmax − one-hot) / n from the exponentials the forward pass computed anyway,
 * instead of differentiating logSoftmax, a one-hot product and two reductions over the [n, vocab] logits
 * (the training bench's loss row compares the two).
 */
export function crossEntropy(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Scalar {
  const [n, vocab] = logits.shape;
  const fused = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [x, save] = args as [tf.Tensor2D, tf.GradSaveFunc];
    // On wasm ppmlm's fused kernels: three floats per row instead of the exponentials on the tape.
    const stats = fusedCrossEntropy(x, labels);
    if (stats !== undefined) {
      save([x, labels, stats]);
      const [, sums, picked] = tf.split(stats, 3, 1);
      return {
        value: tf.mean(tf.sub(tf.log(sums!), picked!)),
        gradFunc: (dy: tf.Tensor, [xs, y, st]: tf.Tensor[]) => fusedCrossEntropyGrad(xs!, y!, st!, tf.div(dy, n))!,
      };
    }
    const shifted = tf.sub(x, tf.max(x, 1, true));
    const exps = tf.exp(shifted);
    const sums = tf.sum(exps, 1, true);
    // The label's shifted logit, gathered from the flat logits at row * vocab + label.
    const picked = tf.gather(tf.reshape(shifted, [n * vocab]), tf.add(tf.range(0, n * vocab, vocab, 'int32'), labels));
    // Labels are saved too: a caller's tidy may dispose them before the backward pass runs.
    save([exps, sums, labels]);
    return {
      value: tf.mean(tf.sub(tf.reshape(tf.log(sums), [n]), picked)),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [e, z, y] = saved as [tf.Tensor, tf.Tensor, tf.Tensor1D];
        return tf.mul(tf.sub(tf.div(e, z), tf.oneHot(y, vocab)), tf.div(dy, n));
      },
    };
  });
  return fused(logits) as tf.Scalar;
}

/** Token-classification logits [batch * seq, labels]. */
export function tokenClassifierLogits(params: Params, hidden: tf.Tensor2D): tf.Tensor2D {
  return dense(params, 'classifier', hidden);
}

/**
 * Sequence-classification logits [batch, labels]: the [CLS] hidden state through the pooler (dense + tanh)
 * and the classifier, as BertForSequenceClassification computes them.
 */
export function sequenceClassifierLogits(params: Params, config: EncoderConfig, hidden: tf.Tensor2D, batchSize: number, seqLen: number): tf.Tensor2D {
  const cls = tf.gather(hidden, tf.range(0, batchSize * seqLen, seqLen, 'int32'));
  const pooled = tf.tanh(dense(params, `${basePrefix(config)}.pooler.dense`, cls)) as tf.Tensor2D;
  return dense(params, 'classifier', pooled);
}
