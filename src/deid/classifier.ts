import * as tf from '@tensorflow/tfjs-core';
import { Rng } from '../engine/random.js';
import { train, type LogEntry, type TrainerState } from '../engine/trainer.js';
import { encode, tokenClassifierLogits, crossEntropy, padBatch, writeModelFiles, type BatchRow, type EncoderModel, type Provenance } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { windowRanges, windowsOf, type Encoding, type Tokenizer } from '../tokenizer/index.js';
import { alignLabels, tokenizeForDeid } from './tokenize.js';

/** A labelled text: character spans with their label at the chosen level. */
export interface LabelledText {
  text: string;
  spans: { start: number; end: number; label: string }[];
}

interface LabelledWindow {
  ids: Int32Array;
  /** Label id per token, -1 at special tokens. */
  labels: Int32Array;
}

/** Encodes labelled texts into windows of token ids and IO label ids. */
export async function labelledWindows(texts: readonly LabelledText[], tokenizer: Tokenizer, labelIds: ReadonlyMap<string, number>, seqLen: number, analyzer?: MorphAnalyzer): Promise<LabelledWindow[]> {
  const out: LabelledWindow[] = [];
  for (const t of texts) {
    const body = await tokenizeForDeid(tokenizer, t.text, analyzer);
    for (const w of windowsOf(tokenizer, body, { maxLength: seqLen })) {
      const aligned = alignLabels(w, t.spans);
      out.push({ ids: Int32Array.from(w.ids), labels: Int32Array.from(aligned, (l, i) => (w.special[i] ? -1 : labelIds.get(l) ?? labelIds.get('O')!)) });
    }
  }
  return out;
}

/** Every non-special token of a window is a target. */
function targetsOf(w: LabelledWindow): BatchRow {
  const positions: number[] = [];
  const labels: number[] = [];
  w.labels.forEach((l, i) => {
    if (l < 0) return;
    positions.push(i);
    labels.push(l);
  });
  return { ids: w.ids, positions, labels };
}

export interface TrainClassifierOptions {
  model: EncoderModel;
  tokenizer: Tokenizer;
  labels: readonly string[];
  /** The labelled texts of each epoch (per-epoch replacement gives new surrogates each time). */
  epochTexts: (epoch: number) => Promise<LabelledText[]>;
  epochs: number;
  batchSize: number;
  seqLen: number;
  lr: number;
  seed: number;
  analyzer?: MorphAnalyzer;
  checkpointDir?: string;
  resume?: boolean;
  provenance: () => Provenance;
  onLog?: (entry: LogEntry, state: TrainerState) => void;
}

/**
 * Fine-tunes the encoder with a token-classification head (cross-entropy over every non-special token, IO
 * labels) on the engine's trainer: AdamW, warmup + cosine, checkpoints, resume.
 */
export async function trainTokenClassifier(options: TrainClassifierOptions): Promise<TrainerState> {
  const { model, tokenizer, seed } = options;
  const labelIds = new Map(options.labels.map((l, i) => [l, i]));
  const padId = tokenizer.idOf(tokenizer.specials.pad)!;
  const perEpoch: LabelledWindow[][] = [];
  for (let e = 0; e < options.epochs; e++) perEpoch.push(await labelledWindows(await options.epochTexts(e), tokenizer, labelIds, options.seqLen, options.analyzer));
  const batches = Math.ceil(perEpoch[0]!.length / options.batchSize);
  const orders = new Map<number, number[]>();
  return train(model.params, {
    batchesPerEpoch: batches,
    batch(epoch, index) {
      const windows = perEpoch[epoch]!;
      let order = orders.get(epoch);
      if (!order) orders.set(epoch, (order = new Rng(seed).fork(epoch).shuffle(windows.map((_, i) => i))));
      const picked = order.slice(index * options.batchSize, (index + 1) * options.batchSize).map((i) => windows[i]!);
      if (picked.length === 0) return undefined;
      const b = padBatch(picked.map(targetsOf), padId);
      return {
        tokens: b.inputIds.length,
        targets: b.labels.length,
        protectedTargets: 0,
        loss: () => {
          const hidden = encode(model.params, model.config, { inputIds: tf.tensor2d(b.inputIds, [b.batchSize, b.seqLen], 'int32'), attentionMask: tf.tensor2d(b.attentionMask, [b.batchSize, b.seqLen], 'int32') });
          return crossEntropy(tokenClassifierLogits(model.params, tf.gather(hidden, tf.tensor1d(b.positions, 'int32'))), tf.tensor1d(b.labels, 'int32'));
        },
      };
    },
  }, {
    epochs: options.epochs,
    lr: options.lr,
    seed,
    checkpointDir: options.checkpointDir,
    resume: options.resume,
    writeModel: (dir) => writeModelFiles(dir, model, tokenizer, options.provenance()),
    onLog: options.onLog,
  });
}

/** Windows run through the model together when predicting. */
const PREDICT_BATCH = 32;

/**
 * The predicted label of every token of a text. Windows overlap by half, and each token takes the label
 * predicted in the window where it has the most context on its scarcer side: a token at a window's cut
 * sees nothing beyond it, which made tokens near cuts the tagger's weakest (`--stride 0` restores
 * disjoint windows). Windows go through the model in batches.
 */
export async function predictLabels(model: EncoderModel, tokenizer: Tokenizer, labels: readonly string[], text: string, seqLen: number, analyzer?: MorphAnalyzer, stride = Math.floor((seqLen - 2) / 2)): Promise<{ encoding: Encoding; predicted: string[] }> {
  const encoding = await tokenizeForDeid(tokenizer, text, analyzer);
  const n = encoding.ids.length;
  const predicted = new Array<string>(n).fill('O');
  if (n === 0) return { encoding, predicted };
  const context = new Float64Array(n).fill(-1);
  const ranges = windowRanges(n, { maxLength: seqLen, stride });
  const windows = windowsOf(tokenizer, encoding, { maxLength: seqLen, stride });
  const padId = tokenizer.idOf(tokenizer.specials.pad)!;
  for (let first = 0; first < windows.length; first += PREDICT_BATCH) {
    const rows = windows.slice(first, first + PREDICT_BATCH).map((w) => {
      const positions = w.ids.map((_, i) => i).slice(1, -1);
      return { ids: w.ids, positions, labels: positions };
    });
    const b = padBatch(rows, padId);
    const argmax = tf.tidy(() => {
      const hidden = encode(model.params, model.config, { inputIds: tf.tensor2d(b.inputIds, [b.batchSize, b.seqLen], 'int32'), attentionMask: tf.tensor2d(b.attentionMask, [b.batchSize, b.seqLen], 'int32') });
      return tf.argMax(tokenClassifierLogits(model.params, tf.gather(hidden, tf.tensor1d(b.positions, 'int32'))), 1).dataSync() as Int32Array;
    });
    let k = 0;
    rows.forEach((_, r) => {
      const [start, end] = ranges[first + r]!;
      for (let j = start; j < end; j++, k++) {
        const seen = Math.min(start === 0 ? Infinity : j - start, end === n ? Infinity : end - 1 - j);
        if (seen <= context[j]!) continue;
        context[j] = seen;
        predicted[j] = labels[argmax[k]!] ?? 'O';
      }
    });
  }
  return { encoding, predicted };
}
