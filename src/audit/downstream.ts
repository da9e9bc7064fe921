import * as tf from '@tensorflow/tfjs-core';
import type { Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import { train } from '../engine/trainer.js';
import { checkTrainingMemory, crossEntropy, disposeParams, encode, loadModelDir, lossSegments, padBatch, sequenceClassifierLogits } from '../model/index.js';
import { DEFAULT_SEQ_LEN } from '../mlm/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { morphemesFor, tokenizeAtMorphemes, windowsOf } from '../tokenizer/index.js';
import { f1Scores } from './metrics.js';

export interface DownstreamOptions {
  epochs?: number;
  seqLen?: number;
  batchSize?: number;
  lr?: number;
  seed?: number;
  /** Share of the labelled documents used for training; the rest is evaluated (default 0.8). */
  trainShare?: number;
  /** The run's Korean analyser: a vocabulary learnt on morphemes reads the task's text cut so (`morphemesFor`). */
  analyzer?: MorphAnalyzer;
  /** Hears when the task's Korean text cannot be cut as the vocabulary was learnt. */
  onWarn?: (message: string) => void;
}

export interface DownstreamResult {
  macroF1: number;
  microF1: number;
  train: number;
  test: number;
  labels: string[];
}

/**
 * The paper's utility check: fine-tune a sequence-classification head (pooler + classifier) on top of a
 * model's encoder on a seeded train split of labelled documents (their first window), and report macro and
 * micro F1 on the rest.
 */
export async function downstreamF1(modelDir: string, docs: readonly Document[], options: DownstreamOptions = {}): Promise<DownstreamResult> {
  const { epochs = 3, seqLen = DEFAULT_SEQ_LEN, batchSize = 16, lr = 5e-4, seed = 1, trainShare = 0.8 } = options;
  const labelled = docs.filter((d) => d.label !== undefined && d.label !== '');
  const labels = [...new Set(labelled.map((d) => d.label!))].sort();
  if (labels.length < 2) throw new RangeError('the task corpus needs at least two labels');
  const order = new Rng(seed).shuffle([...labelled]);
  const cut = Math.round(order.length * trainShare);
  const [trainDocs, testDocs] = [order.slice(0, cut), order.slice(cut)];
  const { model, tokenizer, provenance } = await loadModelDir(modelDir, { sequenceClassification: labels.length }, seed);
  const padId = tokenizer.idOf(tokenizer.specials.pad)!;
  const { morphemes, warning } = morphemesFor(provenance?.vocabulary?.morphemes, options.analyzer, labelled.map((d) => d.text));
  if (warning) options.onWarn?.(warning);
  const rowOf = async (d: Document) => ({ ids: windowsOf(tokenizer, await tokenizeAtMorphemes(tokenizer, d.text, morphemes), { maxLength: seqLen })[0]!.ids, positions: [0], labels: [labels.indexOf(d.label!)] });
  const trainRows = await Promise.all(trainDocs.map(rowOf));
  const memory = checkTrainingMemory(model.config, { batchSize, seqLen, targetShare: 1 / seqLen, outputs: labels.length });
  const logitsOf = (b: ReturnType<typeof padBatch>) => {
    const hidden = encode(model.params, model.config, { inputIds: tf.tensor2d(b.inputIds, [b.batchSize, b.seqLen], 'int32'), attentionMask: tf.tensor2d(b.attentionMask, [b.batchSize, b.seqLen], 'int32') });
    return sequenceClassifierLogits(model.params, model.config, hidden, b.batchSize, b.seqLen);
  };
  const predicted: string[] = [];
  try {
    await train(model.params, {
      batchesPerEpoch: Math.ceil(trainRows.length / batchSize),
      batch(epoch, index) {
        const picked = new Rng(seed).fork(epoch).shuffle(trainRows.map((_, i) => i)).slice(index * batchSize, (index + 1) * batchSize).map((i) => trainRows[i]!);
        const b = padBatch(picked, padId);
        const head = (hidden: tf.Tensor2D) => crossEntropy(sequenceClassifierLogits(model.params, model.config, hidden, b.batchSize, b.seqLen), tf.tensor1d(b.labels, 'int32'));
        return { tokens: b.inputIds.length, targets: b.batchSize, protectedTargets: 0, segments: lossSegments(model.params, model.config, b, head) };
      },
    }, { epochs, lr, seed, recompute: memory.recompute, writeModel: async () => undefined });
    for (let i = 0; i < testDocs.length; i += batchSize) {
      const b = padBatch(await Promise.all(testDocs.slice(i, i + batchSize).map(rowOf)), padId);
      const best = tf.tidy(() => tf.argMax(logitsOf(b), 1));
      // Read asynchronously: a GPU backend has no synchronous read under Node.
      for (const id of (await best.data()) as Int32Array) predicted.push(labels[id]!);
      best.dispose();
    }
  } finally {
    disposeParams(model.params);
  }
  const scores = f1Scores(testDocs.map((d) => d.label!), predicted);
  return { macroF1: scores.macro, microF1: scores.micro, train: trainDocs.length, test: testDocs.length, labels };
}
