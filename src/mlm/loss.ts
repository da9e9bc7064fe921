import * as tf from '@tensorflow/tfjs-core';
import type { SegmentForward } from '../engine/segments.js';
import { crossEntropy, encode, lossSegments, mlmLogits, type Dropout, type EncoderModel, type PaddedBatch } from '../model/index.js';

type Model = Pick<EncoderModel, 'params' | 'config'>;

/** The MLM head's loss over hidden states: mean cross-entropy at the batch's targets. */
const mlmHead = (model: Model, b: PaddedBatch) => (hidden: tf.Tensor2D) =>
  crossEntropy(mlmLogits(model.params, model.config, hidden, tf.tensor1d(b.positions, 'int32')), tf.tensor1d(b.labels, 'int32'));

/** Mean masked-LM cross-entropy of a padded batch over its targets: the forward training and evaluation share. */
export function mlmLoss(model: Model, b: PaddedBatch): tf.Scalar {
  const inputIds = tf.tensor2d(b.inputIds, [b.batchSize, b.seqLen], 'int32');
  const attentionMask = tf.tensor2d(b.attentionMask, [b.batchSize, b.seqLen], 'int32');
  return mlmHead(model, b)(encode(model.params, model.config, { inputIds, attentionMask, ...(b.frozenInputs && { frozenInputs: b.frozenInputs }) }));
}

/** The same loss as segments for the trainer (activation checkpointing; see engine/segments.ts), with training-time dropout when given. */
export function mlmLossSegments(model: Model, b: PaddedBatch, dropout?: Dropout): SegmentForward[] {
  return lossSegments(model.params, model.config, b, mlmHead(model, b), dropout);
}
