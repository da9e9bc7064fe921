import * as tf from '@tensorflow/tfjs-core';
import type { SegmentForward } from '../engine/segments.js';
import type { BatchStep } from '../engine/trainer.js';
import { crossEntropy, encode, lossSegments, mlmLogits, splitBatch, type Dropout, type EncoderModel, type PaddedBatch } from '../model/index.js';

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

/**
 * A batch's loss for the trainer: whole, or as micro-batches of `rows` windows when the memory plan says
 * so (see model/memory.ts). `dropout(from, to)` gives rows [from, to) of the batch their own masks, the
 * same in a part as in the whole batch; a part without a target is left out (its mean loss is undefined).
 */
export function mlmBatchLoss(model: Model, b: PaddedBatch, rows: number, dropout?: (from: number, to: number) => Dropout): Pick<BatchStep, 'segments' | 'parts'> {
  if (rows >= b.batchSize) return { segments: mlmLossSegments(model, b, dropout?.(0, b.batchSize)) };
  return {
    parts: splitBatch(b, rows).flatMap((part, i) =>
      part.labels.length === 0 ? [] : [{ segments: mlmLossSegments(model, part, dropout?.(i * rows, i * rows + part.batchSize)), weight: part.labels.length }],
    ),
  };
}
