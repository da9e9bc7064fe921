import * as tf from '@tensorflow/tfjs-core';
import { Rng } from '../engine/random.js';
import { epochsToRun, train, type BatchStep, type LogEntry, type ScheduleOptions, type TrainerState, type TrainerTask } from '../engine/trainer.js';
import { UsageError } from '../errors.js';
import { PRIVATE_FILE_MODE } from '../io/index.js';
import { dpRecord, makeAccountant, makePrivate, planDp, releaseAccountant, releaseRandom, type DpOptions, type DpPlan, type DpRecord } from '../privacy/index.js';
import type { RunConfig } from '../engine/runConfig.js';
import { assertNoNaN, checkTrainingMemory, DROPOUT_STREAM, dropoutOf, encode, lossSegments, tokenClassifierLogits, crossEntropy, padBatch, writeModelFiles, type BatchRow, type EncoderModel, type Provenance } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { tokenizeAtMorphemes, windowRanges, windowsOf, type Encoding, type Tokenizer } from '../tokenizer/index.js';
import { tokenMetrics } from './metrics.js';
import { alignLabels } from './tokenize.js';

/** A labelled text: character spans with their label at the chosen level. */
export interface LabelledText {
  text: string;
  spans: { start: number; end: number; label: string }[];
}

export interface LabelledWindow {
  /** Index of the text it was cut from (DP's document unit). */
  doc: number;
  ids: Int32Array;
  /** Label id per token, -1 at special tokens. */
  labels: Int32Array;
}

/** Encodes labelled texts into windows of token ids and IO label ids. */
export async function labelledWindows(texts: readonly LabelledText[], tokenizer: Tokenizer, labelIds: ReadonlyMap<string, number>, seqLen: number, analyzer?: MorphAnalyzer): Promise<LabelledWindow[]> {
  const out: LabelledWindow[] = [];
  for (const [doc, t] of texts.entries()) {
    const body = await tokenizeAtMorphemes(tokenizer, t.text, analyzer);
    for (const w of windowsOf(tokenizer, body, { maxLength: seqLen })) {
      const aligned = alignLabels(w, t.spans);
      out.push({ doc, ids: Int32Array.from(w.ids), labels: Int32Array.from(aligned, (l, i) => (w.special[i] ? -1 : labelIds.get(l) ?? labelIds.get('O')!)) });
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

export interface TrainClassifierOptions extends ScheduleOptions {
  model: EncoderModel;
  tokenizer: Tokenizer;
  labels: readonly string[];
  /** The labelled texts of each epoch (per-epoch replacement gives new surrogates each time). */
  epochTexts: (epoch: number) => Promise<LabelledText[]>;
  epochs: number;
  batchSize: number;
  seqLen: number;
  lr: number;
  /** Share of "O" tokens replaced by a random token in each batch, their label kept (see {@link noisyOutside}). */
  outsideNoise?: number;
  seed: number;
  analyzer?: MorphAnalyzer;
  checkpointDir?: string;
  resume?: boolean;
  /** Stored in each checkpoint; a resume refuses a checkpoint written with another (see {@link RunConfig}). */
  runConfig?: RunConfig;
  /** The provenance of a checkpoint, given the DP record so far in a DP run. */
  provenance: (dp?: DpRecord) => Provenance;
  /**
   * DP-SGD (see privacy/): each release Poisson-samples units (documents by default, or windows), at most
   * `maxWindows` windows each, clipped per unit and noised. `author` is refused: this data has no author.
   */
  dp?: DpOptions;
  onLog?: (entry: LogEntry, state: TrainerState) => void;
}

/** Seeds the outside noise apart from the data order and the dropout masks (DROPOUT_STREAM), which fork the same seed. */
const NOISE_STREAM = 0x3c6ef372;

/**
 * The window with each "O" token replaced, with probability `p`, by one of `replacements` (ids), its label
 * kept. Surrogates make every unfamiliar token of the training text PII, so a tagger learns "unfamiliar
 * means PII" and flags the rare common words of new text; random tokens labelled O in random places
 * break that shortcut.
 */
export function noisyOutside(w: LabelledWindow, p: number, outside: number, replacements: Int32Array, rng: Rng): LabelledWindow {
  if (p <= 0) return w;
  const ids = Int32Array.from(w.ids);
  for (let i = 0; i < ids.length; i++) if (w.labels[i] === outside && rng.next() < p) ids[i] = replacements[rng.int(replacements.length)]!;
  return { ...w, ids };
}

/**
 * The window length, in tokens, that 99 windows in 100 of a training set fit in: a position past it was
 * trained on too seldom for its embedding to mean anything, and reading windows that reach it made a model
 * trained on tweets find nothing in a paragraph (wikigold's articles: persons 71% → 9%).
 */
export function commonWindowLength(lengths: readonly number[]): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  return sorted[Math.floor(0.99 * (sorted.length - 1))] ?? 0;
}

/**
 * Fine-tunes the encoder with a token-classification head (cross-entropy over every non-special token, IO
 * labels) on the engine's trainer: AdamW, warmup + cosine, checkpoints, resume; dropout as the config's
 * hidden_dropout_prob and attention_probs_dropout_prob say and optional outside noise, each step's random
 * draws from its own seed.
 */
export async function trainTokenClassifier(options: TrainClassifierOptions): Promise<{ state: TrainerState; dp?: DpRecord; windowTokens: number }> {
  const { model, tokenizer, seed } = options;
  const labelIds = new Map(options.labels.map((l, i) => [l, i]));
  const padId = tokenizer.idOf(tokenizer.specials.pad)!;
  const outside = labelIds.get('O')!;
  const specialIds = new Set(Object.values(tokenizer.specials).map((t) => tokenizer.idOf(t)));
  const replacements = Int32Array.from({ length: tokenizer.vocabSize }, (_, i) => i).filter((i) => !specialIds.has(i));
  const first = await options.epochTexts(0);
  const windowsOf = async (epoch: number) => labelledWindows(epoch === 0 ? first : await options.epochTexts(epoch), tokenizer, labelIds, options.seqLen, options.analyzer);
  const perEpoch: LabelledWindow[][] = [await windowsOf(0)];
  const batches = Math.ceil(perEpoch[0]!.length / options.batchSize);
  // With maxSteps the trainer may run more (or fewer) epochs than `epochs`: prepare the texts of each one it runs.
  for (let e = 1; e < epochsToRun(batches, options); e++) perEpoch.push(await windowsOf(e));
  const orders = new Map<number, number[]>();
  const memory = checkTrainingMemory(model.config, { batchSize: options.dp ? 1 : options.batchSize, seqLen: options.seqLen, targetShare: 1, outputs: options.labels.length, perExampleGradients: options.dp !== undefined });
  /** One batch of windows: its cross-entropy over every non-special token, dropout drawn from `dropout`. */
  const stepOf = (picked: readonly LabelledWindow[], dropout: Rng): Pick<BatchStep, 'tokens' | 'targets' | 'protectedTargets' | 'segments'> => {
    const b = padBatch(picked.map(targetsOf), padId);
    return {
      tokens: b.inputIds.length,
      targets: b.labels.length,
      protectedTargets: 0,
      segments: lossSegments(
        model.params,
        model.config,
        b,
        (hidden) => crossEntropy(tokenClassifierLogits(model.params, tf.gather(hidden, tf.tensor1d(b.positions, 'int32'))), tf.tensor1d(b.labels, 'int32')),
        dropoutOf(model.config, dropout),
      ),
    };
  };
  const noise = (epoch: number, index: number) => new Rng(seed ^ NOISE_STREAM).fork(epoch).fork(index);
  const dropoutRng = (epoch: number, index: number) => new Rng(seed ^ DROPOUT_STREAM).fork(epoch).fork(index);
  let task: TrainerTask = {
    batchesPerEpoch: batches,
    batch(epoch, index) {
      const windows = perEpoch[epoch]!;
      let order = orders.get(epoch);
      if (!order) orders.set(epoch, (order = new Rng(seed).fork(epoch).shuffle(windows.map((_, i) => i))));
      const rng = noise(epoch, index);
      const picked = order.slice(index * options.batchSize, (index + 1) * options.batchSize).map((i) => noisyOutside(windows[i]!, options.outsideNoise ?? 0, outside, replacements, rng));
      return picked.length === 0 ? undefined : stepOf(picked, dropoutRng(epoch, index));
    },
  };
  let dp: { plan: DpPlan; accountant: ReturnType<typeof makeAccountant> } | undefined;
  if (options.dp) {
    const unit = options.dp.unit ?? 'document';
    if (unit === 'author') throw new UsageError('--dp-unit author: de-identification training data has no author column; use --dp-unit document (each judgment or note) or window');
    // Windows change every epoch (fresh surrogates): a document's windows are looked up in the epoch's own.
    const byDoc = perEpoch.map((ws) => {
      const windows = first.map((): number[] => []);
      ws.forEach((w, i) => windows[w.doc]!.push(i));
      return windows;
    });
    const units = unit === 'window' ? perEpoch[0]!.length : first.length;
    const plan = planDp(options.dp, units, options.batchSize, options, 'document');
    dp = { plan, accountant: makeAccountant(plan.accountant) };
    task = makePrivate(
      {
        units,
        examplesOf: (u, epoch) => (unit === 'window' ? (u < perEpoch[epoch]!.length ? [u] : []) : (byDoc[epoch]![u] ?? [])),
        example: (i, epoch, release) => stepOf([noisyOutside(perEpoch[epoch]![i]!, options.outsideNoise ?? 0, outside, replacements, noise(epoch, release).fork(i))], dropoutRng(epoch, release).fork(i)),
      },
      { clip: plan.clip, noiseMultiplier: plan.noiseMultiplier, sampleRate: plan.sampleRate, maxExamples: plan.maxWindows, releasesPerEpoch: plan.releasesPerEpoch, recompute: memory.recompute, random: releaseRandom(plan, seed) },
    );
  }
  const record = () => dp && dpRecord(dp.plan, dp.accountant);
  const state = await train(model.params, task, {
    epochs: options.epochs,
    maxSteps: options.maxSteps,
    accumulate: options.accumulate,
    warmupRatio: options.warmupRatio,
    weightDecay: options.weightDecay,
    lr: options.lr,
    seed,
    checkpointDir: options.checkpointDir,
    resume: options.resume,
    runConfig: options.runConfig,
    recompute: memory.recompute,
    writeModel: (dir) => writeModelFiles(dir, model, tokenizer, options.provenance(record())),
    onLog: options.onLog,
    // DP-SGD clips per unit itself; clipping the noisy mean again would change the mechanism.
    ...(dp && { maxGradNorm: 0, accountant: releaseAccountant(dp.accountant, dp.plan.noiseMultiplier, dp.plan.sampleRate), logMode: PRIVATE_FILE_MODE }),
  });
  return { state, dp: record(), windowTokens: commonWindowLength(perEpoch[0]!.map((w) => w.ids.length)) };
}

/** Windows run through the model together when predicting. */
const PREDICT_BATCH = 32;

export interface PredictOptions {
  /** Tokens per window, [CLS] and [SEP] included. */
  seqLen: number;
  /** Tokens between window starts; default half a window. 0 gives disjoint windows. */
  stride?: number;
  /** Cuts Korean text into morphemes first, for models trained that way. */
  analyzer?: MorphAnalyzer;
  /**
   * A token is PII when the probability of every label other than "O" together reaches this, and then
   * takes the likeliest of those labels. Without it each token takes its likeliest label.
   */
  piiThreshold?: number;
}

/** A labelled text: its tokens, a label per token, and what the labels were decided from. */
export interface Prediction {
  encoding: Encoding;
  predicted: string[];
  /** Per token, the probability that it is PII (1 − P(O)), as the model gives it. */
  piiProbability: Float32Array;
}

/**
 * The predicted label of every token of a text. Windows overlap by half, and each token takes the label
 * predicted in the window where it has the most context on its scarcer side: a token at a window's cut
 * sees nothing beyond it, which made tokens near cuts the tagger's weakest (`stride: 0` restores
 * disjoint windows). Windows go through the model in batches. Several models sharing the tokenizer and
 * labels (an ensemble, e.g. of training seeds) give each token the mean of their label probabilities.
 */
export async function predictLabels(model: EncoderModel | readonly EncoderModel[], tokenizer: Tokenizer, labels: readonly string[], text: string, options: PredictOptions): Promise<Prediction> {
  const { seqLen, analyzer, piiThreshold } = options;
  const stride = options.stride ?? Math.floor((seqLen - 2) / 2);
  const encoding = await tokenizeAtMorphemes(tokenizer, text, analyzer);
  const n = encoding.ids.length;
  const predicted = new Array<string>(n).fill('O');
  const piiProbability = new Float32Array(n);
  if (n === 0) return { encoding, predicted, piiProbability };
  const outside = labels.indexOf('O');
  const L = labels.length;
  const context = new Float64Array(n).fill(-1);
  const ranges = windowRanges(n, { maxLength: seqLen, stride });
  const windows = windowsOf(tokenizer, encoding, { maxLength: seqLen, stride });
  const padId = tokenizer.idOf(tokenizer.specials.pad)!;
  const members = 'params' in model ? [model] : model;
  for (let first = 0; first < windows.length; first += PREDICT_BATCH) {
    const rows = windows.slice(first, first + PREDICT_BATCH).map((w) => {
      const positions = w.ids.map((_, i) => i).slice(1, -1);
      return { ids: w.ids, positions, labels: positions };
    });
    const b = padBatch(rows, padId);
    const probsOnBackend = tf.tidy(() => {
      const inputs = { inputIds: tf.tensor2d(b.inputIds, [b.batchSize, b.seqLen], 'int32'), attentionMask: tf.tensor2d(b.attentionMask, [b.batchSize, b.seqLen], 'int32') };
      const positions = tf.tensor1d(b.positions, 'int32');
      const each = members.map((m) => tf.softmax(tokenClassifierLogits(m.params, tf.gather(encode(m.params, m.config, inputs), positions))));
      return each.length === 1 ? each[0]! : tf.div(tf.addN(each), each.length);
    });
    // Read asynchronously: a GPU backend has no synchronous read under Node.
    const probs = (await probsOnBackend.data()) as Float32Array;
    probsOnBackend.dispose();
    let k = 0;
    rows.forEach((_, r) => {
      const [start, end] = ranges[first + r]!;
      for (let j = start; j < end; j++, k++) {
        const seen = Math.min(start === 0 ? Infinity : j - start, end === n ? Infinity : end - 1 - j);
        if (seen <= context[j]!) continue;
        context[j] = seen;
        const row = probs.subarray(k * L, (k + 1) * L);
        piiProbability[j] = outside < 0 ? 1 : 1 - row[outside]!;
        predicted[j] = labels[decide(row, outside, piiThreshold)] ?? 'O';
      }
    });
  }
  return { encoding, predicted, piiProbability };
}

/** The label id a token takes from its label probabilities (see {@link PredictOptions.piiThreshold}). */
function decide(row: Float32Array, outside: number, piiThreshold: number | undefined): number {
  let best = -1;
  for (let l = 0; l < row.length; l++) if ((piiThreshold === undefined || l !== outside) && (best < 0 || row[l]! > row[best]!)) best = l;
  if (piiThreshold === undefined || outside < 0) return best;
  return 1 - row[outside]! >= piiThreshold ? best : outside;
}

/**
 * The PII threshold that maximises binary token F1 over tokens with gold PII flags and predicted PII
 * probabilities: tokens at or above it are PII. Exact over every distinct probability (one sort).
 */
export function bestPiiThreshold(gold: ArrayLike<boolean>, piiProbability: ArrayLike<number>): { threshold: number; f1: number } {
  const n = piiProbability.length;
  if (gold.length !== n) throw new RangeError(`gold has ${gold.length} tokens, probabilities ${n}`);
  assertNoNaN(piiProbability, 'PII probabilities of the dev split');
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => piiProbability[b]! - piiProbability[a]!);
  let positives = 0;
  for (let i = 0; i < n; i++) if (gold[i]) positives++;
  let best = { threshold: 0.5, f1: 0 };
  let tp = 0;
  for (let r = 0; r < n; r++) {
    if (gold[order[r]!]) tp++;
    const p = piiProbability[order[r]!]!;
    // Cut only between distinct probabilities: every token at p is on the same side.
    if (r + 1 < n && piiProbability[order[r + 1]!] === p) continue;
    const f1 = (2 * tp) / (r + 1 + positives);
    if (f1 > best.f1) best = { threshold: p, f1 };
  }
  return best;
}

/**
 * Chooses the model's PII threshold on held-out labelled texts (the dev split): precision and recall of a
 * tagger trained on surrogates are rarely balanced at the likeliest label, and binary F1 is what is asked of
 * it. Returns the threshold, the dev F1 with it, and the dev F1 of the likeliest label, for the record.
 */
export async function calibratePiiThreshold(model: EncoderModel, tokenizer: Tokenizer, labels: readonly string[], texts: readonly LabelledText[], options: Omit<PredictOptions, 'piiThreshold'>): Promise<{ threshold: number; f1: number; argmaxF1: number; tokens: number }> {
  const gold: string[] = [];
  const probability: number[] = [];
  const argmax: string[] = [];
  for (const t of texts) {
    const p = await predictLabels(model, tokenizer, labels, t.text, options);
    gold.push(...alignLabels(p.encoding, t.spans));
    probability.push(...p.piiProbability);
    argmax.push(...p.predicted);
  }
  const { threshold, f1 } = bestPiiThreshold(gold.map((l) => l !== 'O'), probability);
  return { threshold, f1, argmaxF1: tokenMetrics(gold, argmax).binary.f1, tokens: gold.length };
}
