import * as tf from '@tensorflow/tfjs-core';
import type { Document } from '../corpus/index.js';
import { PACKAGE_VERSION } from '../version.js';
import { Rng } from '../engine/random.js';
import { checkpointModelDir, lossCurve, readCheckpointState, train, type LogEntry, type TrainerState } from '../engine/trainer.js';
import { assertCanWrite } from '../io/index.js';
import { BlacklistMatcher, blacklistFingerprint, type Blacklist } from '../identifiers/index.js';
import { crossEntropy, loadModelDir, lossSegments, mlmLogits, saveModelDir, writeModelFiles, type LoadedModel, type Provenance } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { UsageError } from '../errors.js';
import { dpSgdEpsilon, noiseForEpsilon } from './accountants/accountant.js';
import { makeBatch, type MlmBatch } from './batch.js';
import { dpSgdGradients, poissonSample } from './dpsgd.js';
import { randomPool } from './masking.js';
import { pseudonymize, type PseudoStyle } from './pseudonymize.js';
import type { StrategyName } from './strategy.js';
import { buildWindows, type TrainingWindow, type WindowStats } from './windows.js';

export interface FinetuneOptions {
  /** Model folder to start from (Hugging Face layout). */
  model: string;
  docs: readonly Document[];
  strategy: StrategyName;
  /** Required for constrained and pseudonymized; for standard only used to count identifier targets. */
  blacklist?: Blacklist;
  out: string;
  epochs?: number;
  batchSize?: number;
  seqLen?: number;
  stride?: number;
  lr?: number;
  maskProb?: number;
  wholeWord?: boolean;
  /** pseudonymized: replace direct identifiers by `[CATEGORY]` placeholders (default) or format-preserving surrogates. */
  pseudo?: PseudoStyle;
  /** Keep the random-replacement draw from producing tokens of blacklisted terms. */
  noRandomBlacklisted?: boolean;
  seed?: number;
  accumulate?: number;
  warmupRatio?: number;
  weightDecay?: number;
  /** Where checkpoints go (default `<out>.checkpoint`). */
  checkpointDir?: string;
  saveSteps?: number;
  resume?: boolean;
  /** Also write `<out>.epoch-N` after every epoch. */
  saveEveryEpoch?: boolean;
  force?: boolean;
  /** DP-SGD (strategy dp): per-example clipping norm (default 1.0). */
  dpClip?: number;
  /** DP-SGD noise multiplier; or give targetEpsilon to solve for it. */
  dpNoise?: number;
  targetEpsilon?: number;
  /** DP delta (default 1/number of training windows). */
  delta?: number;
  analyzer?: MorphAnalyzer;
  onLog?: (entry: LogEntry, state: TrainerState) => void;
  onInfo?: (message: string) => void;
}

export interface FinetuneResult {
  out: string;
  state: TrainerState;
  windows: WindowStats;
  provenance: Provenance;
}

/** DP-SGD settings: the sample rate, steps per epoch, and the noise multiplier given or solved from a target epsilon. */
function dpSettings(options: FinetuneOptions, n: number, batchSize: number, epochs: number) {
  const q = Math.min(1, batchSize / n);
  const stepsPerEpoch = Math.max(1, Math.round(n / batchSize));
  const delta = options.delta ?? 1 / n;
  const clip = options.dpClip ?? 1.0;
  if (options.dpNoise === undefined && options.targetEpsilon === undefined) throw new UsageError('--strategy dp needs --dp-noise S or --target-epsilon E');
  const sigma = options.dpNoise ?? noiseForEpsilon(options.targetEpsilon!, q, stepsPerEpoch * epochs, delta);
  return { q, stepsPerEpoch, delta, clip, sigma };
}

/** The window order of an epoch: a seeded shuffle, the same on every run and after a resume. */
function epochOrder(n: number, seed: number, epoch: number): number[] {
  return new Rng(seed).fork(epoch).shuffle(Array.from({ length: n }, (_, i) => i));
}

/**
 * The masking generator of the window at `slot` of an epoch's order, independent of every other window:
 * resuming mid-epoch is exact, and masks do not depend on the batch size (accumulated micro-batches
 * equal one large batch).
 */
const windowRng = (seed: number, epoch: number, slot: number) => new Rng(seed ^ 0x5bd1e995).fork(epoch * 1_000_003 + slot);

/** The generator of one DP-SGD batch (its Poisson sample, masks and noise). */
const dpBatchRng = (seed: number, epoch: number, index: number) => new Rng(seed ^ 0x2545f491).fork(epoch * 1_000_003 + index);

/**
 * Fine-tunes a masked LM with one strategy (see mlm/README.md) and writes a Hugging Face model folder with
 * ppmlm.json provenance. Checkpoints every epoch (and every `saveSteps`), resumable with `resume`.
 */
export async function finetune(options: FinetuneOptions): Promise<FinetuneResult> {
  const { strategy, seed = 42, epochs = 3, batchSize = 16, seqLen = 128, lr = 5e-5, maskProb = 0.15 } = options;
  const checkpointDir = options.checkpointDir ?? `${options.out}.checkpoint`;
  await assertCanWrite(options.out, options.force);
  const resumeFrom = options.resume ? await readCheckpointState(checkpointDir) : undefined;
  const loaded: LoadedModel = await loadModelDir(resumeFrom ? checkpointModelDir(checkpointDir) : options.model, 'mlm', seed);
  if (resumeFrom) options.onInfo?.(`resuming from ${checkpointDir} at epoch ${resumeFrom.epoch + 1}, batch ${resumeFrom.batch}`);
  if (loaded.initialized.length > 0) options.onInfo?.(`initialised ${loaded.initialized.length} MLM head tensors missing from ${options.model}`);
  const { model, tokenizer } = loaded;

  const entries = options.blacklist?.entries ?? [];
  let docs = options.docs;
  if (strategy === 'pseudonymized') {
    const matcher = new BlacklistMatcher(entries);
    const style = options.pseudo ?? 'placeholder';
    docs = await Promise.all(docs.map(async (d, i) => ({ ...d, text: await pseudonymize(d.text, matcher, entries, { analyzer: options.analyzer, style, rng: new Rng(seed).fork(i) }) })));
  }
  const { windows, stats } = await buildWindows(docs, tokenizer, { seqLen, stride: options.stride ?? Math.floor(seqLen / 4), blacklist: entries, analyzer: options.analyzer });
  options.onInfo?.(`${stats.windows} windows of ${stats.documents} documents, ${stats.tokens} tokens, ${stats.protectedTokens} protected`);

  const exclude = new Set(tokenizer.specialIds);
  if (options.noRandomBlacklisted) {
    for (const e of entries) for (const id of tokenizer.tokenize(e.term).ids) exclude.add(id);
  }
  const maskConfig = {
    probability: maskProb,
    maskId: tokenizer.idOf(tokenizer.specials.mask)!,
    randomPool: randomPool(tokenizer.vocabSize, exclude),
    padId: tokenizer.idOf(tokenizer.specials.pad)!,
    wholeWord: options.wholeWord === true,
  };
  const orders = new Map<number, number[]>();
  const dp = strategy === 'dp' ? dpSettings(options, windows.length, batchSize, epochs) : undefined;
  if (dp) options.onInfo?.(`DP-SGD: sample rate ${dp.q.toFixed(4)}, noise multiplier ${dp.sigma.toFixed(2)}, clip ${dp.clip}, delta ${dp.delta.toExponential(2)}`);
  const mlmLoss = (b: MlmBatch) => (hidden: tf.Tensor2D) => crossEntropy(mlmLogits(model.params, model.config, hidden, tf.tensor1d(b.positions, 'int32')), tf.tensor1d(b.labels, 'int32'));
  const segmentsOf = (b: MlmBatch) => lossSegments(model.params, model.config, b, mlmLoss(b));
  const lossOf = (b: MlmBatch) => () => segmentsOf(b).reduce<tf.Tensor | undefined>((x, f) => f(x), undefined) as tf.Scalar;
  const dpTask = dp && {
    batchesPerEpoch: dp.stepsPerEpoch,
    batch(epoch: number, index: number) {
      const rng = dpBatchRng(seed, epoch, index);
      const examples = poissonSample(windows.length, dp.q, rng.fork(1)).map((i) => makeBatch([windows[i]!], strategy, maskConfig, () => rng.fork(100 + i)));
      const withTargets = examples.filter((b) => b.labels.length > 0);
      return {
        tokens: examples.reduce((a, b) => a + b.tokens, 0),
        targets: examples.reduce((a, b) => a + b.labels.length, 0),
        protectedTargets: examples.reduce((a, b) => a + b.protectedTargets, 0),
        // The noisy sum is already divided by the expected batch size: accumulated DP batches count equally.
        weight: 1,
        gradients: (params: ReadonlyMap<string, tf.Variable>) => dpSgdGradients(params, withTargets.map(lossOf), { clip: dp.clip, noiseMultiplier: dp.sigma, expectedBatchSize: batchSize }, rng.fork(2)),
      };
    },
  };
  const task = dpTask || {
    batchesPerEpoch: Math.ceil(windows.length / batchSize),
    batch(epoch: number, index: number) {
      let order = orders.get(epoch);
      if (order === undefined) {
        orders.clear();
        orders.set(epoch, (order = epochOrder(windows.length, seed, epoch)));
      }
      const picked: TrainingWindow[] = order.slice(index * batchSize, (index + 1) * batchSize).map((i) => windows[i]!);
      const b = makeBatch(picked, strategy, maskConfig, (j) => windowRng(seed, epoch, index * batchSize + j));
      return { tokens: b.tokens, targets: b.labels.length, protectedTargets: b.protectedTargets, segments: segmentsOf(b) };
    },
  };

  const provenance = (state?: TrainerState): Provenance => ({
    ppmlm: PACKAGE_VERSION,
    createdAt: new Date().toISOString(),
    base: loaded.provenance?.base ?? options.model,
    strategy,
    ...(options.blacklist && { blacklistFingerprint: blacklistFingerprint(options.blacklist), blacklistTerms: entries.length }),
    epochs: state ? state.epoch : epochs,
    seed,
    maskProb,
    wholeWord: options.wholeWord === true,
    targets: state?.targets ?? 0,
    protectedTargets: state?.protectedTargets ?? 0,
    ...(state && { lossByEpoch: lossCurve(state) }),
    ...(dp && { dp: { epsilon: dpSgdEpsilon(dp.q, dp.sigma, state?.step ?? dp.stepsPerEpoch * epochs, dp.delta), delta: dp.delta, noiseMultiplier: dp.sigma, clip: dp.clip, sampleRate: dp.q, accountant: 'rdp' } }),
  });

  const state = await train(model.params, task, {
    epochs,
    lr,
    seed,
    accumulate: options.accumulate,
    warmupRatio: options.warmupRatio,
    weightDecay: options.weightDecay,
    // DP-SGD clips each example's gradient itself; clipping the noisy mean again would change the mechanism.
    maxGradNorm: dp ? 0 : 1.0,
    checkpointDir,
    saveSteps: options.saveSteps,
    resume: options.resume,
    writeModel: (dir) => writeModelFiles(dir, model, tokenizer, provenance()),
    onLog: options.onLog,
    onEpochEnd: options.saveEveryEpoch
      ? async (epoch, s) => {
          await saveModelDir(`${options.out}.epoch-${epoch + 1}`, model, tokenizer, provenance(s), { force: true });
        }
      : undefined,
  });
  const final = provenance(state);
  await saveModelDir(options.out, model, tokenizer, final, { force: options.force });
  return { out: options.out, state, windows: stats, provenance: final };
}
