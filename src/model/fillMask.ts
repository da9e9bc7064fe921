import * as tf from '@tensorflow/tfjs-core';
import { UsageError } from '../errors.js';
import type { Tokenizer } from '../tokenizer/index.js';
import { usablePositions } from './config.js';
import { encode, mlmLogits } from './encoder.js';
import type { EncoderModel } from './modelDir.js';

/** One candidate in the shape of Hugging Face's fill-mask pipeline (`id` is ppmlm's older name of `token`). */
export interface FillMaskCandidate {
  score: number;
  /** The token's id, as the pipeline gives it. */
  token: number;
  /** The token decoded on its own (`tokenizer.decode([token])`). */
  token_str: string;
  /** The text with this mask filled by the token, decoded without special tokens (other masks dropped, as the pipeline does). */
  sequence: string;
  id: number;
}

/**
 * Token ids of a text in which the tokenizer's mask token (e.g. `[MASK]`) may appear literally: the
 * tokenizer matches it as Hugging Face does (RoBERTa's `<mask>` takes the space before it).
 */
export function encodeWithMasks(tokenizer: Tokenizer, text: string): { ids: number[]; maskPositions: number[] } {
  const maskId = tokenizer.idOf(tokenizer.specials.mask)!;
  const ids = [tokenizer.idOf(tokenizer.specials.cls)!, ...tokenizer.tokenize(text).ids, tokenizer.idOf(tokenizer.specials.sep)!];
  const maskPositions = ids.flatMap((id, i) => (id === maskId ? [i] : []));
  return { ids, maskPositions };
}

/**
 * The Hugging Face fill-mask pipeline: for each mask token in `text`, the `topK` most probable tokens (with
 * the pipeline's keys: score, token, token_str, sequence). A mask
 * beyond the model's positions is a UsageError (the text after the last position is cut off).
 *
 * @example await fillMask(model, tokenizer, 'The patient was seen by Dr. [MASK].', 5)
 */
export async function fillMask(model: EncoderModel, tokenizer: Tokenizer, text: string, topK = 5): Promise<FillMaskCandidate[][]> {
  const { ids, maskPositions } = encodeWithMasks(tokenizer, text);
  if (maskPositions.length === 0) return [];
  const limit = usablePositions(model.config);
  const beyond = maskPositions.findIndex((p) => p >= limit);
  if (beyond >= 0) throw new UsageError(`${tokenizer.specials.mask} #${beyond + 1} is token ${maskPositions[beyond]! + 1} of the text, beyond the model's ${limit} positions; shorten the text before it`);
  const ids2d = ids.slice(0, limit);
  const [valuesT, indicesT] = tf.tidy(() => {
    const inputIds = tf.tensor2d(ids2d, [1, ids2d.length], 'int32');
    const hidden = encode(model.params, model.config, { inputIds, attentionMask: tf.onesLike(inputIds) as tf.Tensor2D });
    const logits = mlmLogits(model.params, model.config, hidden, tf.tensor1d(maskPositions, 'int32'));
    const { values, indices } = tf.topk(tf.softmax(logits), topK);
    return [values, indices];
  });
  // Read asynchronously: a GPU backend has no synchronous read under Node.
  const values = (await valuesT.array()) as number[][];
  const indices = (await indicesT.array()) as number[][];
  tf.dispose([valuesT, indicesT]);
  return values.map((row, m) =>
    row.map((score, k) => {
      const id = indices[m]![k]!;
      const filled = ids2d.slice();
      filled[maskPositions[m]!] = id;
      return { score, token: id, token_str: tokenizer.decode([id]), sequence: tokenizer.decode(filled), id };
    }),
  );
}
