import * as tf from '@tensorflow/tfjs-core';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, TrainingDivergedError } from '../errors.js';
import { writeDirAtomic, writeFileAtomic } from '../io/index.js';
import { bestModelDir, checkpointModelDir, resumeTraining, TRAIN_LOG, writeCheckpointFiles } from './checkpoint.js';
import type { RunConfig } from './runConfig.js';
import type { AdamWOptions } from './adamw.js';
import { clipFactor } from './gradientBuffer.js';
import { gradientStore, type GradientStore } from './gradientStore.js';
import { segmentedGradients, segmentedLoss, type GradientSink, type SegmentForward } from './segments.js';
import { warmupCosine } from './schedule.js';

/**
 * What one batch contributes: its loss (a closure, or the same split into segments), and counts for the
 * log. Exactly one of `loss`, `segments` and `gradients` says how its gradients are computed.
 */
export interface BatchStep {
  /** The mean loss of the batch as one function of the parameters (small models). */
  loss?: () => tf.Scalar;
  /**
   * The same loss split into segments (an encoder's embeddings, each layer, the head and loss), which the
   * trainer can differentiate one at a time with activation checkpointing (see {@link segmentedGradients}).
   */
  segments?: readonly SegmentForward[];
  /**
   * The batch as micro-batches run one after another, each a mean loss over its own targets weighted by
   * them (exact gradient accumulation within the batch): what the memory plan picks when the batch does
   * not fit the heap even with activation checkpointing (see model/memory.ts). The batch's weight is then
   * the sum of theirs; a part must hold at least one target.
   */
  parts?: readonly MicroBatch[];
  /**
   * Computes the gradients itself instead of differentiating a loss (DP-SGD: per-individual clipping and
   * noise), handing each parameter's gradient to `add` (see {@link ComputedGradient}); resolves to the mean
   * loss. Async: on a GPU backend the values it needs come back asynchronously.
   */
  gradients?: (params: ReadonlyMap<string, tf.Variable>, add: (name: string, g: ComputedGradient) => void) => Promise<number>;
  /**
   * The batch is one noisy release of a differentially private mechanism: it is applied even when it holds
   * no target (an empty Poisson sample still releases noise, as the accountant assumes) and the trainer
   * steps {@link TrainOptions.accountant} once for it.
   */
  release?: boolean;
  /**
   * How much the batch counts when micro-batches are accumulated into one step (default: its targets).
   * A loss that is a mean over targets, weighted by targets, makes N accumulated micro-batches give the
   * gradient of one batch N times as large.
   */
  weight?: number;
  tokens: number;
  targets: number;
  protectedTargets: number;
}

/** One micro-batch of a {@link BatchStep}: its loss as segments, and its weight (its targets). */
export interface MicroBatch {
  segments: readonly SegmentForward[];
  weight: number;
}

/**
 * A gradient a batch computed itself: values in JavaScript memory (host sums on wasm and cpu), or a tensor
 * on the device (a GPU backend, where reading it back would cost a transfer); the trainer takes ownership
 * of a tensor.
 */
export type ComputedGradient = Float32Array | tf.Tensor;

/** A training task: a fixed number of batches per epoch, each reproducible from (epoch, index) alone. */
export interface TrainerTask {
  batchesPerEpoch: number;
  /** undefined skips the batch (e.g. no target left after constraints). */
  batch(epoch: number, index: number): BatchStep | undefined;
}

export interface TrainerState {
  /** Optimizer steps taken. */
  step: number;
  /** Next batch to run. */
  epoch: number;
  batch: number;
  totalSteps: number;
  seed: number;
  protectedTargets: number;
  targets: number;
  skippedBatches: number;
  lastLoss: number;
  /** The loss curve: mean step loss of each finished epoch. */
  epochLosses: number[];
  /** Sum and count of the step losses of the epoch in progress (so a resumed run's curve is exact). */
  epochLossSum: number;
  epochSteps: number;
  /** What `evaluate` returned at each epoch end (and at a `maxSteps` stop), in order. */
  evalLosses: number[];
  /** With `keepBest`: the index in `evalLosses` of the lowest one, whose model is in {@link bestModelDir}. */
  bestEpoch?: number;
  /** Noisy releases made so far (batches marked {@link BatchStep.release}); 0 in a run without privacy. */
  releases: number;
  /** The accountant's state after those releases, so a resumed run continues its privacy ledger. */
  accountant?: unknown;
}

/**
 * What the trainer needs of a privacy accountant bound to one mechanism: a step per noisy release, and a
 * state a checkpoint keeps and a resume restores.
 */
export interface ReleaseAccountant {
  step(): void;
  stateDict(): unknown;
  loadStateDict(state: unknown): void;
}

export interface LogEntry {
  step: number;
  epoch: number;
  batch: number;
  loss: number;
  lr: number;
  gradNorm: number;
  tokensPerSecond: number;
  targets: number;
  protectedTargets: number;
  elapsedSeconds: number;
}

/** The line train_log.jsonl gets after each evaluation; `epoch` is 0-based as in {@link LogEntry}. */
export interface EvalLogEntry {
  evalLoss: number;
  epoch: number;
  step: number;
}

/** The optimisation settings a task's own training function passes through to {@link train} unchanged. */
export type ScheduleOptions = Pick<TrainOptions, 'maxSteps' | 'accumulate' | 'warmupRatio' | 'weightDecay'>;

export interface TrainOptions extends AdamWOptions {
  epochs: number;
  /**
   * Stop after this many optimizer steps, mid-epoch if need be: it replaces `epochs` (the schedule decays
   * to 0 at this step, as Hugging Face's max_steps does).
   */
  maxSteps?: number;
  lr: number;
  /** Share of optimizer steps spent warming up (default 0.1). */
  warmupRatio?: number;
  maxGradNorm?: number;
  /** Micro-batches whose gradients are accumulated (weighted by their targets) into one optimizer step (default 1). */
  accumulate?: number;
  /** Differentiate segmented losses one segment at a time, recomputing its forward (activation checkpointing). */
  recompute?: boolean;
  seed: number;
  /** Where the latest checkpoint and train_log.jsonl go; no checkpoints without it. */
  checkpointDir?: string;
  /** Checkpoint every N optimizer steps, besides every epoch end (default: epoch ends only). */
  saveSteps?: number;
  /** Continue from the checkpoint in checkpointDir; without one there, a UsageError. */
  resume?: boolean;
  /**
   * The settings that make the run what it is (see {@link RunConfig}): stored in each checkpoint, and a
   * resume refuses a checkpoint written with others (or with none).
   */
  runConfig?: RunConfig;
  /** Writes the model files of a checkpoint into a folder. */
  writeModel: (dir: string) => Promise<void>;
  /**
   * A loss on held-out data, lower is better; called at every epoch end and at a `maxSteps` stop, before
   * the checkpoint, so its value is part of the trainer state. It must not change the parameters.
   */
  evaluate?: () => Promise<number> | number;
  /** With `evaluate`: write the model of the lowest evaluation loss to {@link bestModelDir} (needs checkpointDir). */
  keepBest?: boolean;
  /**
   * Called after each complete epoch (e.g. --save-every-epoch), before its checkpoint: a run killed between
   * the two resumes from the checkpoint before and does the epoch again, where one that checkpointed first
   * would resume past an epoch whose output was never written. It must therefore be repeatable (overwrite).
   */
  onEpochEnd?: (epoch: number, state: TrainerState) => Promise<void>;
  onLog?: (entry: LogEntry, state: TrainerState) => void;
  /** Stepped once per batch marked {@link BatchStep.release}; its state is checkpointed with the trainer's. */
  accountant?: ReleaseAccountant;
  /** File mode of a train_log.jsonl the run creates (a DP run's log holds unprivatised statistics: 0o600). */
  logMode?: number;
}

/**
 * Differentiates one batch's loss (closure or segments), handing each parameter's gradient to `sink`;
 * returns the loss. Shared by the trainer and by tasks that need per-example gradients (DP-SGD).
 */
export function batchGradients(b: Pick<BatchStep, 'loss' | 'segments'>, params: ReadonlyMap<string, tf.Variable>, sink: GradientSink, recompute: boolean): number {
  return segmentedGradients(segmentsOf(b), params, sink, recompute);
}

/** {@link batchGradients} with the loss left in the backend as a scalar the caller disposes (for a GPU backend's async read). */
export function batchLoss(b: Pick<BatchStep, 'loss' | 'segments'>, params: ReadonlyMap<string, tf.Variable>, sink: GradientSink, recompute: boolean): tf.Scalar {
  return segmentedLoss(segmentsOf(b), params, sink, recompute);
}

function segmentsOf(b: Pick<BatchStep, 'loss' | 'segments'>): readonly SegmentForward[] {
  const segments = b.segments ?? (b.loss ? [b.loss] : undefined);
  if (segments === undefined) throw new TypeError('a training batch needs loss, segments or gradients');
  return segments;
}

/** Runs one batch's forward and backward, adding its gradients to `buffer` with `weight`; returns its mean loss. */
async function accumulateBatch(b: BatchStep, weight: number, params: Map<string, tf.Variable>, buffer: GradientStore, recompute: boolean): Promise<number> {
  const differentiate = async (part: Pick<BatchStep, 'loss' | 'segments'>, w: number) => {
    const value = batchLoss(part, params, (name, g) => buffer.add(name, g, w), recompute);
    const loss = (await value.data())[0]!;
    value.dispose();
    return loss;
  };
  let loss: number;
  if (b.gradients) loss = await b.gradients(params, (name, g) => (g instanceof Float32Array ? buffer.addValues(name, g, weight) : buffer.add(name, g, weight)));
  else if (b.parts) {
    let sum = 0;
    for (const part of b.parts) sum += part.weight * (await differentiate(part, part.weight));
    loss = sum / weight;
  } else loss = await differentiate(b, weight);
  buffer.weight += weight;
  return loss;
}

/** How much a batch counts in its step: its parts' weights together, else its own weight, else its targets. */
const batchWeight = (b: BatchStep) => (b.parts ? b.parts.reduce((a, p) => a + p.weight, 0) : (b.weight ?? b.targets));

/**
 * A loss curve of a run for reports and provenance, 4 decimals: the mean training loss of each epoch, or
 * with `'evalLosses'` the evaluation loss at each epoch end.
 */
export const lossCurve = (state: TrainerState, curve: 'epochLosses' | 'evalLosses' = 'epochLosses'): number[] => state[curve].map((l) => Math.round(l * 1e4) / 1e4);

/**
 * How many epochs `train` runs over a task of `batchesPerEpoch` batches: `epochs`, or with `maxSteps` as
 * many as those steps take (the last one possibly cut short).
 */
export function epochsToRun(batchesPerEpoch: number, options: Pick<TrainOptions, 'epochs' | 'maxSteps' | 'accumulate'>): number {
  const stepsPerEpoch = Math.ceil(batchesPerEpoch / Math.max(1, options.accumulate ?? 1));
  return options.maxSteps === undefined ? options.epochs : Math.ceil(options.maxSteps / Math.max(1, stepsPerEpoch));
}

/**
 * The training loop: AdamW with warmup + cosine, global-norm clipping, gradient accumulation over
 * micro-batches, optimizer state and gradient sums outside a wasm heap or on a GPU (see {@link GradientStore}). Checkpoints
 * (model, optimizer moments, trainer state) are written to a temp folder and renamed, at every epoch end
 * (and a `maxSteps` stop) and every `saveSteps` steps; a run killed at any point resumes from the last one
 * and, since each batch is a pure function of (seed, epoch, index), continues exactly where it stopped.
 */
export async function train(params: Map<string, tf.Variable>, task: TrainerTask, options: TrainOptions): Promise<TrainerState> {
  const accumulate = Math.max(1, options.accumulate ?? 1);
  const epochs = epochsToRun(task.batchesPerEpoch, options);
  const totalSteps = options.maxSteps ?? Math.ceil(task.batchesPerEpoch / accumulate) * epochs;
  const warmup = Math.round((options.warmupRatio ?? 0.1) * totalSteps);
  if (options.keepBest && !(options.evaluate && options.checkpointDir)) throw new ConfigError('keepBest needs evaluate and checkpointDir');
  const buffer = gradientStore(params, options);
  const opt = buffer.optimizer;
  let state: TrainerState = { step: 0, epoch: 0, batch: 0, totalSteps, seed: options.seed, protectedTargets: 0, targets: 0, skippedBatches: 0, lastLoss: NaN, epochLosses: [], epochLossSum: 0, epochSteps: 0, evalLosses: [], releases: 0 };
  if (options.resume && options.checkpointDir) {
    state = await resumeTraining(options.checkpointDir, opt, { epochs, batchesPerEpoch: task.batchesPerEpoch, totalSteps, accumulate, seed: options.seed }, options.runConfig);
    buffer.afterResume();
    if (options.accountant) {
      if (state.accountant === undefined) throw new ConfigError(`the checkpoint in ${options.checkpointDir} holds no privacy accountant state; start over with --force`);
      options.accountant.loadStateDict(state.accountant);
    }
  }
  const log = options.checkpointDir ? join(options.checkpointDir, TRAIN_LOG) : undefined;
  // Its optimizer state and log are the owner's only (0600): the folder is too.
  if (options.checkpointDir) await mkdir(options.checkpointDir, { recursive: true, mode: 0o700 });
  // Steps and evaluations logged after the checkpoint resumed from are done again: their first lines go, so the log holds each once.
  if (options.resume && log) await dropLoggedAfter(log, state, options.logMode);

  /** Writes a folder atomically: the model files, then whatever `extra` adds beside them. */
  const saveFolder = (dir: string, extra?: (tmpDir: string) => Promise<void>) =>
    writeDirAtomic(
      dir,
      async (tmpDir) => {
        await options.writeModel(tmpDir);
        await extra?.(tmpDir);
      },
      { force: true },
    );
  /** The step of the last checkpoint written or resumed from, for the message of a diverged run. */
  let lastSaved = options.resume ? state.step : undefined;
  const checkpoint = async () => {
    if (!options.checkpointDir) return;
    if (options.accountant) state.accountant = options.accountant.stateDict();
    await buffer.beforeCheckpoint();
    await saveFolder(checkpointModelDir(options.checkpointDir), (tmpDir) => writeCheckpointFiles(tmpDir, opt, state, options.runConfig));
    lastSaved = state.step;
  };
  const stopped = () => options.maxSteps !== undefined && state.step >= options.maxSteps;
  /**
   * Stops training before a non-finite loss or gradient reaches the parameters: one NaN step would spoil
   * every later step and checkpoint, while the last checkpoint written is still good.
   */
  const checkFinite = (what: string, value: number) => {
    if (Number.isFinite(value)) return;
    const kept = !options.checkpointDir ? '' : lastSaved === undefined ? '; no checkpoint was written before it' : `; the checkpoint of step ${lastSaved} in ${options.checkpointDir} is kept, but resuming would repeat this step`;
    throw new TrainingDivergedError(`training diverged at step ${state.step + 1} (epoch ${state.epoch + 1}): the ${what} is ${value}${kept}; lower --lr or check the data, then start over with --force`);
  };

  /** Closes the epoch in progress, whole or cut short by maxSteps: its mean loss, then its evaluation. */
  const closeEpoch = async () => {
    state.epochLosses.push(state.epochSteps > 0 ? state.epochLossSum / state.epochSteps : NaN);
    state.epochLossSum = 0;
    state.epochSteps = 0;
    if (!options.evaluate) return;
    const evalLoss = await options.evaluate();
    state.evalLosses.push(evalLoss);
    const entry: EvalLogEntry = { evalLoss, epoch: state.epoch, step: state.step };
    if (log) await appendFile(log, `${JSON.stringify(entry)}\n`, { mode: options.logMode });
    const best = state.bestEpoch === undefined ? Infinity : state.evalLosses[state.bestEpoch]!;
    if (options.keepBest && evalLoss < best) {
      // Written before the checkpoint that records it: a run killed in between redoes this evaluation on
      // resume, gets the same loss and rewrites the folder, so the folder and the state always agree.
      await saveFolder(bestModelDir(options.checkpointDir!));
      state.bestEpoch = state.evalLosses.length - 1;
    }
  };

  const started = performance.now();
  let accLoss = 0;
  let accTokens = 0;
  let windowStart = performance.now();
  try {
    while (state.epoch < epochs && !stopped()) {
      while (state.batch < task.batchesPerEpoch && !stopped()) {
        const b = task.batch(state.epoch, state.batch);
        if (b !== undefined && (b.targets > 0 || b.release)) {
          const weight = batchWeight(b);
          const loss = await accumulateBatch(b, weight, params, buffer, options.recompute === true);
          if (b.release) {
            state.releases++;
            options.accountant?.step();
          }
          checkFinite('loss', loss);
          accLoss += weight * loss;
          accTokens += b.tokens;
          state.targets += b.targets;
          state.protectedTargets += b.protectedTargets;
        } else state.skippedBatches++;
        state.batch++;
        const boundary = state.batch % accumulate === 0 || state.batch === task.batchesPerEpoch;
        if (!boundary || buffer.weight === 0) continue;
        // The step's loss and gradient are means over the micro-batches, weighted alike (the buffer's weight is
        // their total). The division and the clipping are one factor applied in AdamW's pass over the sums.
        const mean = 1 / buffer.weight;
        state.lastLoss = accLoss * mean;
        const norm = (await buffer.norm()) * mean;
        checkFinite('gradient norm', norm);
        const lr = warmupCosine(state.step, options.lr, warmup, totalSteps);
        buffer.step(lr, mean * clipFactor(norm, options.maxGradNorm ?? 1.0));
        state.step++;
        state.epochLossSum += state.lastLoss;
        state.epochSteps++;
        const now = performance.now();
        const entry: LogEntry = {
          step: state.step,
          epoch: state.epoch,
          batch: state.batch - 1,
          loss: state.lastLoss,
          lr,
          gradNorm: norm,
          tokensPerSecond: accTokens / ((now - windowStart) / 1000),
          targets: state.targets,
          protectedTargets: state.protectedTargets,
          elapsedSeconds: (now - started) / 1000,
        };
        windowStart = now;
        accLoss = 0;
        accTokens = 0;
        if (log) await appendFile(log, `${JSON.stringify(entry)}\n`, { mode: options.logMode });
        options.onLog?.(entry, state);
        if (options.saveSteps && state.step % options.saveSteps === 0 && state.batch < task.batchesPerEpoch && !stopped()) await checkpoint();
      }
      const finished = state.epoch;
      // A maxSteps stop leaves epoch and batch where training stopped: the state says what was trained.
      const complete = state.batch === task.batchesPerEpoch;
      await closeEpoch();
      if (complete) {
        state.epoch++;
        state.batch = 0;
      }
      if (complete) await options.onEpochEnd?.(finished, state);
      await checkpoint();
    }
  } finally {
    buffer.dispose();
  }
  return state;
}

/**
 * Keeps the log's lines of what a checkpoint's state holds: the steps up to its step, and as many
 * evaluations as it recorded (an evaluation can share its step with the checkpoint, when an epoch ends
 * without a step after a mid-epoch checkpoint, yet be done again on resume). A line cut short by a kill,
 * which nothing can be read from, goes too. Exported for its test.
 */
export async function dropLoggedAfter(log: string, state: Pick<TrainerState, 'step' | 'evalLosses'>, mode: number | undefined): Promise<void> {
  const text = await readFile(log, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const parsed = (line: string) => {
    try {
      return JSON.parse(line) as Partial<LogEntry & EvalLogEntry>;
    } catch {
      return undefined;
    }
  };
  let evaluations = 0;
  const lines = text.split('\n').filter(Boolean);
  const kept = lines.filter((line) => {
    const entry = parsed(line);
    if (entry?.step === undefined || entry.step > state.step) return false;
    return entry.evalLoss === undefined || ++evaluations <= state.evalLosses.length;
  });
  if (kept.length === lines.length) return;
  await writeFileAtomic(log, kept.map((line) => `${line}\n`).join(''), { force: true, mode: mode ?? 0o644 });
}
