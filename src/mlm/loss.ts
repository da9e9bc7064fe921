import * as tf from '@tensorflow/tfjs-core';
import { crossEntropy, encode, mlmLogits, type EncoderModel, type PaddedBatch } from '../model/index.js';

/** Mean masked-LM cross-entropy of a padded batch over its targets: the one forward training and evaluation share. */
export function mlmLoss(model: Pick<EncoderModel, 'params' | 'config'>, b: PaddedBatch): tf.Scalar {
  const inputIds = tf.tensor2d(b.inputIds, [b.batchSize, b.seqLen], 'int32');
  const attentionMask = tf.tensor2d(b.attentionMask, [b.batchSize, b.seqLen], 'int32');
  const hidden = encode(model.params, model.config, { inputIds, attentionMask });
  return crossEntropy(mlmLogits(model.params, model.config, hidden, tf.tensor1d(b.positions, 'int32')), tf.tensor1d(b.labels, 'int32'));
}
