import type * as tf from '@tensorflow/tfjs-core';
import { resolve } from 'node:path';
import { splitByAuthor, type Document } from '../corpus/index.js';
import { PACKAGE_VERSION } from '../version.js';
import { Rng } from '../engine/random.js';
import { lossCurve, train, type LogEntry, type TrainerState } from '../engine/trainer.js';
import { bestModelDir, checkpointDirFor, checkpointModelDir, openCheckpoint } from '../engine/checkpoint.js';
import { contentFingerprint, type RunConfig } from '../engine/runConfig.js';
import { assertCanWrite } from '../io/index.js';
import { BlacklistMatcher, blacklistFingerprint, type Blacklist } from '../identifiers/index.js';
import { assertSeqLenFits, checkTrainingMemory, checkVocabulary, copyModelDir, describeTrainingMemory, loadModelDir, saveModelDir, writeModelFiles, type LoadedModel, type Provenance, type VocabularyCheck } from '../model/index.js';
import { BlacklistedTerms } from '../tokenizer/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { UsageError } from '../errors.js';
import { dpSgdEpsilon, noiseForEpsilon } from './accountants/accountant.js';
import { makeBatch, type MlmBatch } from './batch.js';
import { dpSgdGradients, poissonSample } from './dpsgd.js';
import { epochFolder, pruneEpochFolders } from './epochFolders.js';
import { mlmEvalLoss } from './evalLoss.js';
import { mlmLoss, mlmLossSegments } from './loss.js';
import { epochOrder, maskConfigFor, trainingStride, windowRng } from './schedule.js';
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
  /** Export even when vocabulary tokens are blacklisted terms (recorded in ppmlm.json); default: refuse. */
  allowVocabularyIdentifiers?: boolean;
  /** Keep the random-replacement draw from producing tokens of blacklisted terms. */
  noRandomBlacklisted?: boolean;
  seed?: number;
  /** Batches (of `batchSize` windows) whose gradients make one optimizer step (default 1). */
  accumulate?: number;
  /** Stop after this many optimizer steps, mid-epoch if need be; replaces `epochs` (Hugging Face's max_steps). */
  maxSteps?: number;
  /** Share of optimizer steps spent warming up (default 0.1). */
  warmupRatio?: number;
  /** AdamW decoupled weight decay (default 0.01). */
  weightDecay?: number;
  /** Documents of other individuals to compute an evaluation loss on at every epoch end. */
  evalDocs?: readonly Document[];
  /** Or: hold out this share (0 < share < 1) of the individuals of `docs` for evaluation (seeded by `seed`). */
  evalSplit?: number;
  /** With evaluation: `out` gets the weights of the epoch with the lowest evaluation loss, not the last. */
  loadBestModelAtEnd?: boolean;
  /** Where checkpoints go (default `<out>.checkpoint`). */
  checkpointDir?: string;
  saveSteps?: number;
  /**
   * Continue the run in `checkpointDir`; refused (UsageError) when there is no checkpoint or it was written
   * with other settings (flags, corpus, blacklist).
   */
  resume?: boolean;
  /** Also write `<out>.epoch-N` after every epoch. */
  saveEveryEpoch?: boolean;
  /** With saveEveryEpoch: keep only the N most recent `<out>.epoch-N` folders (and the best one). */
  saveTotalLimit?: number;
  /** Replace an existing `out`; without `resume`, also delete the checkpoint folder of an earlier run (refused without). */
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

/**
 * Refuses evaluation and checkpoint-keeping options that contradict each other, before any data is read
 * (the CLI calls it too, before loading corpora).
 */
export function checkFinetuneOptions(options: Pick<FinetuneOptions, 'evalDocs' | 'evalSplit' | 'loadBestModelAtEnd' | 'saveTotalLimit' | 'saveEveryEpoch'> & { /** The CLI's evaluation corpus path, before it is read. */ evalCorpus?: string }): void {
  const evalDocs = options.evalDocs ?? options.evalCorpus;
  if (evalDocs !== undefined && options.evalSplit !== undefined) throw new UsageError('give either --eval-corpus or --eval-split, not both');
  if (options.loadBestModelAtEnd && evalDocs === undefined && options.evalSplit === undefined) throw new UsageError('--load-best-model-at-end needs an evaluation: --eval-corpus PATH or --eval-split P');
  if (options.saveTotalLimit !== undefined && !options.saveEveryEpoch) throw new UsageError('--save-total-limit limits the <out>.epoch-N folders of --save-every-epoch; pass that too');
}

/** The documents of a corpus as a run configuration records them (see {@link contentFingerprint}). */
const docsFingerprint = (docs: readonly Document[]) => contentFingerprint(docs.flatMap((d) => [d.id, d.author, d.text, d.label ?? '']));

/**
 * What makes a fine-tuning run what it is, named by the CLI's flags (`null`: not given, the default): the
 * options that change what the model learns or how ppmlm.json labels it. Checkpointing, logging and output
 * options are left out, so a resume may change them.
 */
function finetuneRunConfig(options: FinetuneOptions, resolved: { strategy: StrategyName; seed: number; epochs: number; batchSize: number; seqLen: number; lr: number; maskProb: number }): RunConfig {
  const { strategy } = resolved;
  return {
    '--model': resolve(options.model),
    '--corpus': docsFingerprint(options.docs),
    '--blacklist': options.blacklist ? blacklistFingerprint(options.blacklist) : null,
    '--strategy': strategy,
    '--epochs': resolved.epochs,
    '--max-steps': options.maxSteps ?? null,
    '--batch-size': resolved.batchSize,
    '--grad-accum': options.accumulate ?? null,
    '--seq-len': resolved.seqLen,
    stride: options.stride ?? null,
    '--lr': resolved.lr,
    '--warmup-ratio': options.warmupRatio ?? null,
    '--weight-decay': options.weightDecay ?? null,
    '--mask-prob': resolved.maskProb,
    '--whole-word': options.wholeWord === true,
    '--random-blacklisted': options.noRandomBlacklisted !== true,
    '--seed': resolved.seed,
    '--analyzer': options.analyzer?.name ?? null,
    '--eval-corpus': options.evalDocs ? docsFingerprint(options.evalDocs) : null,
    '--eval-split': options.evalSplit ?? null,
    '--load-best-model-at-end': options.loadBestModelAtEnd === true,
    ...(strategy === 'pseudonymized' && { '--pseudo': options.pseudo ?? null }),
    ...(strategy === 'dp' && { '--dp-clip': options.dpClip ?? null, '--dp-noise': options.dpNoise ?? null, '--target-epsilon': options.targetEpsilon ?? null, '--delta': options.delta ?? null }),
  };
}

/** DP-SGD settings: the sample rate, steps per epoch, and the noise multiplier given or solved from a target epsilon. */
function dpSettings(options: FinetuneOptions, n: number, batchSize: number, epochs: number) {
  const q = Math.min(1, batchSize / n);
  const stepsPerEpoch = Math.max(1, Math.round(n / batchSize));
  // The accountant counts optimizer steps; accumulating several noisy batches per step would under-count releases.
  if ((options.accumulate ?? 1) > 1) throw new UsageError('--strategy dp takes no --grad-accum: each noisy batch is one release; raise --batch-size (the expected sample) instead');
  const releases = options.maxSteps ?? stepsPerEpoch * epochs;
  const delta = options.delta ?? 1 / n;
  const clip = options.dpClip ?? 1.0;
  if (options.dpNoise === undefined && options.targetEpsilon === undefined) throw new UsageError('--strategy dp needs --dp-noise S or --target-epsilon E');
  const sigma = options.dpNoise ?? noiseForEpsilon(options.targetEpsilon!, q, releases, delta);
  return { q, stepsPerEpoch, releases, delta, clip, sigma };
}

/** The generator of one DP-SGD batch (its Poisson sample, masks and noise). */
const dpBatchRng = (seed: number, epoch: number, index: number) => new Rng(seed ^ 0x2545f491).fork(epoch * 1_000_003 + index);

/**
 * Fine-tunes a masked LM with one strategy (see mlm/README.md) and writes a Hugging Face model folder with
 * ppmlm.json provenance. Checkpoints every epoch (and every `saveSteps`), resumable with `resume` under the
 * same settings (see {@link openCheckpoint}: an earlier run's checkpoint is replaced only with `force`). With
 * `evalDocs` or `evalSplit`, a held-out masked-LM loss at every epoch end; with `loadBestModelAtEnd`,
 * `out` holds the weights of the epoch where it was lowest (the returned state is still the last step's).
 */
export async function finetune(options: FinetuneOptions): Promise<FinetuneResult> {
  const { strategy, seed = 42, epochs = 3, batchSize = 16, seqLen = 128, lr = 5e-5, maskProb = 0.15 } = options;
  checkFinetuneOptions(options);
  const checkpointDir = options.checkpointDir ?? checkpointDirFor(options.out);
  await assertCanWrite(options.out, options.force);
  const runConfig = finetuneRunConfig(options, { strategy, seed, epochs, batchSize, seqLen, lr, maskProb });
  const resumeFrom = options.resume ? await openCheckpoint(checkpointDir, { resume: true, runConfig }) : undefined;
  const loaded: LoadedModel = await loadModelDir(resumeFrom ? checkpointModelDir(checkpointDir) : options.model, 'mlm', seed);
  if (resumeFrom) options.onInfo?.(`resuming from ${checkpointDir} at epoch ${resumeFrom.epoch + 1}, batch ${resumeFrom.batch}`);
  if (loaded.initialized.length > 0) options.onInfo?.(`initialised ${loaded.initialized.length} MLM head tensors missing from ${options.model}`);
  const { model, tokenizer } = loaded;
  assertSeqLenFits(model.config, seqLen, '--seq-len', options.model);
  const vocabulary: VocabularyCheck | undefined = options.blacklist && { blacklisted: new BlacklistedTerms(options.blacklist.entries.map((e) => e.term)), allowIdentifiers: options.allowVocabularyIdentifiers };
  // The tokenizer is fixed for the run: checked once, before training, and the override (if any) recorded in
  // the provenance every export of the run writes (checkpoints, epoch folders, the best model's copy).
  const vocabularyIdentifiers = checkVocabulary(tokenizer, vocabulary);
  // DP-SGD differentiates one window at a time.
  const memory = checkTrainingMemory(model.config, { batchSize: strategy === 'dp' ? 1 : batchSize, seqLen, targetShare: maskProb, outputs: model.config.vocab_size, perExampleGradients: strategy === 'dp' });
  options.onInfo?.(describeTrainingMemory(memory));
  // Only now, every check passed, may a fresh run (with --force) delete an earlier run's checkpoint.
  if (!options.resume) await openCheckpoint(checkpointDir, { resume: false, force: options.force, runConfig });

  const entries = options.blacklist?.entries ?? [];
  /** Training and evaluation text alike: rewritten as the strategy says, then cut into windows. */
  const windowsOf = async (docs: readonly Document[]) => {
    if (strategy === 'pseudonymized') {
      const matcher = new BlacklistMatcher(entries);
      const style = options.pseudo ?? 'placeholder';
      docs = await Promise.all(docs.map(async (d, i) => ({ ...d, text: await pseudonymize(d.text, matcher, entries, { analyzer: options.analyzer, style, rng: new Rng(seed).fork(i) }) })));
    }
    return buildWindows(docs, tokenizer, { seqLen, stride: trainingStride(seqLen, options.stride), blacklist: entries, analyzer: options.analyzer });
  };
  const split = options.evalSplit === undefined ? undefined : splitByAuthor(options.docs, options.evalSplit, seed);
  const evalDocs = split?.heldOut ?? options.evalDocs;
  const { windows, stats } = await windowsOf(split?.train ?? options.docs);
  options.onInfo?.(`${stats.windows} windows of ${stats.documents} documents, ${stats.tokens} tokens, ${stats.protectedTokens} protected`);

  const maskConfig = maskConfigFor(tokenizer, entries, { maskProb, wholeWord: options.wholeWord, noRandomBlacklisted: options.noRandomBlacklisted });
  const orders = new Map<number, number[]>();
  const dp = strategy === 'dp' ? dpSettings(options, windows.length, batchSize, epochs) : undefined;
  if (dp) options.onInfo?.(`DP-SGD: sample rate ${dp.q.toFixed(4)}, noise multiplier ${dp.sigma.toFixed(2)}, clip ${dp.clip}, delta ${dp.delta.toExponential(2)}`);
  let evaluate: (() => number) | undefined;
  if (evalDocs !== undefined) {
    const held = await windowsOf(evalDocs);
    options.onInfo?.(`evaluating on ${held.stats.windows} windows of ${held.stats.documents} held-out documents`);
    evaluate = mlmEvalLoss(model, held.windows, { strategy, mask: maskConfig, batchSize, seed });
  }
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
        gradients: (params: ReadonlyMap<string, tf.Variable>) => dpSgdGradients(params, withTargets.map((b) => () => mlmLoss(model, b)), { clip: dp.clip, noiseMultiplier: dp.sigma, expectedBatchSize: batchSize }, rng.fork(2)),
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
      return { tokens: b.tokens, targets: b.labels.length, protectedTargets: b.protectedTargets, segments: mlmLossSegments(model, b) };
    },
  };

  const provenance = (state?: TrainerState): Provenance => ({
    ppmlm: PACKAGE_VERSION,
    createdAt: new Date().toISOString(),
    base: loaded.provenance?.base ?? options.model,
    strategy,
    ...(options.blacklist && { blacklistFingerprint: blacklistFingerprint(options.blacklist), blacklistTerms: entries.length }),
    // What was trained: a maxSteps run may stop mid-epoch, so whole epochs plus the share of the last one.
    epochs: state ? Math.round((state.epoch + state.batch / task.batchesPerEpoch) * 1e4) / 1e4 : epochs,
    ...(state && { steps: state.step }),
    seed,
    maskProb,
    wholeWord: options.wholeWord === true,
    targets: state?.targets ?? 0,
    protectedTargets: state?.protectedTargets ?? 0,
    ...(state && { lossByEpoch: lossCurve(state) }),
    ...(state && evaluate && { evalLossByEpoch: lossCurve(state, 'evalLosses') }),
    // 1-based, as the <out>.epoch-N folders are numbered.
    ...(state?.bestEpoch !== undefined && { bestEpoch: state.bestEpoch + 1, bestEvalLoss: lossCurve(state, 'evalLosses')[state.bestEpoch] }),
    ...(dp && { dp: { epsilon: dpSgdEpsilon(dp.q, dp.sigma, state?.step ?? dp.releases, dp.delta), delta: dp.delta, noiseMultiplier: dp.sigma, clip: dp.clip, sampleRate: dp.q, accountant: 'rdp' } }),
    ...(vocabularyIdentifiers > 0 && { allowVocabularyIdentifiers: true, vocabularyIdentifiers }),
  });

  const state = await train(model.params, task, {
    epochs,
    maxSteps: options.maxSteps,
    lr,
    seed,
    accumulate: options.accumulate,
    warmupRatio: options.warmupRatio,
    weightDecay: options.weightDecay,
    // DP-SGD clips each example's gradient itself; clipping the noisy mean again would change the mechanism.
    maxGradNorm: dp ? 0 : 1.0,
    recompute: memory.recompute,
    checkpointDir,
    saveSteps: options.saveSteps,
    resume: options.resume,
    runConfig,
    writeModel: (dir) => writeModelFiles(dir, model, tokenizer, provenance()),
    evaluate,
    keepBest: options.loadBestModelAtEnd === true,
    onLog: options.onLog,
    onEpochEnd: options.saveEveryEpoch
      ? async (epoch, s) => {
          await saveModelDir(epochFolder(options.out, epoch + 1), model, tokenizer, provenance(s), { force: true });
          if (options.saveTotalLimit !== undefined) await pruneEpochFolders(options.out, epoch + 1, options.saveTotalLimit, s.bestEpoch === undefined ? undefined : s.bestEpoch + 1);
        }
      : undefined,
  });
  const final = provenance(state);
  if (state.bestEpoch !== undefined) await copyModelDir(bestModelDir(checkpointDir), options.out, final, { force: options.force });
  else await saveModelDir(options.out, model, tokenizer, final, { force: options.force });
  return { out: options.out, state, windows: stats, provenance: final };
}
