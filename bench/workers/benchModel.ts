import { Rng } from '../../src/engine/index.js';
import { checkTrainingMemory, defaultConfig, initParams, parameterShapes, type LargeBatchStrategy } from '../../src/model/index.js';

/**
 * A freshly initialised encoder of a bench shape (BERT-style heads of 64, feed-forward 4x), its memory
 * plan, and random MLM batches (15% of positions as targets, different for every index): what the
 * train-step worker and the step profile both train on.
 */
export function benchModel(hidden: number, layers: number, vocab: number, seq: number, batch: number, large?: LargeBatchStrategy) {
  const config = defaultConfig({ vocab_size: vocab, hidden_size: hidden, num_hidden_layers: layers, num_attention_heads: Math.max(1, hidden / 64), intermediate_size: 4 * hidden, max_position_embeddings: Math.max(512, seq) });
  const model = { config, params: initParams(parameterShapes(config), config, 1) };
  const memory = checkTrainingMemory(config, { batchSize: batch, seqLen: seq, targetShare: 0.15, outputs: vocab }, large);
  const randomBatch = (index: number) => {
    const rng = new Rng(index + 1);
    const inputIds = Int32Array.from({ length: batch * seq }, () => 5 + rng.int(vocab - 5));
    const positions = Int32Array.from({ length: Math.round(0.15 * batch * seq) }, (_, i) => Math.floor(i / 0.15));
    const labels = positions.map(() => 5 + rng.int(vocab - 5));
    return { batchSize: batch, seqLen: seq, inputIds, attentionMask: new Int32Array(batch * seq).fill(1), positions, labels };
  };
  return { config, model, memory, randomBatch };
}
