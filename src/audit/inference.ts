import * as tf from '@tensorflow/tfjs-core';
import { encode, mlmLogits, padBatch, type EncoderModel } from '../model/index.js';

/** One masked input to score: token ids (with mask tokens placed) and the positions whose originals are asked for. */
export interface MaskedQuery {
  ids: Int32Array;
  positions: number[];
  labels: number[];
}

export interface PositionPrediction {
  label: number;
  /** log p(label) */
  logProb: number;
  top: number[];
}

/**
 * Runs masked queries through the model in padded batches and returns, per query and asked position, the
 * log-probability of the original token and the top-k predictions. Logits are computed at the asked
 * positions only.
 */
export async function predictMasked(model: EncoderModel, queries: readonly MaskedQuery[], options: { padId: number; batchSize?: number; topK?: number }): Promise<PositionPrediction[][]> {
  const batchSize = options.batchSize ?? 32;
  const topK = options.topK ?? 5;
  const out: PositionPrediction[][] = [];
  for (let start = 0; start < queries.length; start += batchSize) {
    const batch = queries.slice(start, start + batchSize);
    const { seqLen: S, inputIds: ids, attentionMask: attention, positions, labels } = padBatch(batch, options.padId);
    if (positions.length === 0) {
      out.push(...batch.map(() => []));
      continue;
    }
    const [picked, best] = tf.tidy(() => {
      const hidden = encode(model.params, model.config, { inputIds: tf.tensor2d(ids, [batch.length, S], 'int32'), attentionMask: tf.tensor2d(attention, [batch.length, S], 'int32') });
      const lp = tf.logSoftmax(mlmLogits(model.params, model.config, hidden, tf.tensor1d(positions, 'int32')));
      // The label's log-probability gathered from the flat [positions x vocab] matrix (one read per position,
      // where a one-hot product made three passes over it), and argMax when only the top-1 is asked.
      const V = lp.shape[1];
      const picked = tf.gather(lp.reshape([-1]), tf.tensor1d(labels.map((l, i) => i * V + l), 'int32'));
      return [picked, topK === 1 ? tf.argMax(lp, 1) : tf.topk(lp, topK).indices];
    });
    // Read asynchronously: a GPU backend has no synchronous read under Node.
    const logProbs = (await picked.data()) as Float32Array;
    const top = (await best.data()) as Int32Array;
    tf.dispose([picked, best]);
    let at = 0;
    for (const q of batch) {
      const preds: PositionPrediction[] = [];
      for (let k = 0; k < q.positions.length; k++, at++) preds.push({ label: labels[at]!, logProb: logProbs[at]!, top: Array.from(top.subarray(at * topK, at * topK + topK)) });
      out.push(preds);
    }
  }
  return out;
}
