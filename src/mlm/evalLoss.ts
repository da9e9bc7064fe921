import * as tf from '@tensorflow/tfjs-core';
import { Rng } from '../engine/random.js';
import { padBatch, type EncoderModel, type PaddedBatch } from '../model/index.js';
import { maskWindow, type BatchMaskConfig } from './batch.js';
import { mlmLoss } from './loss.js';
import type { MaskingPolicy } from './strategy.js';
import type { TrainingWindow } from './windows.js';

export interface MlmEvalLossOptions {
  /** The training run's masking policy: its eligible positions (constrained never targets a protected one) apply here too. */
  masking: MaskingPolicy;
  mask: BatchMaskConfig;
  /** Windows per forward pass. */
  batchSize: number;
  /** Seed of the fixed masks. */
  seed: number;
}

/** Keeps the evaluation masks apart from the training draws of the same seed. */
const EVAL_STREAM = 0x1b873593;

/**
 * A held-out masked-LM loss for the trainer's `evaluate` hook: the mean cross-entropy over every target of
 * the evaluation windows, with masks drawn once, window by window from the seed, so every epoch (and a
 * resumed run) scores the same targets whatever the batch size or training order. Inference only: no
 * dropout, no gradients, each batch in its own `tf.tidy`.
 *
 * @example
 * const evaluate = mlmEvalLoss(model, evalWindows, { masking: 'constrained', mask, batchSize: 16, seed: 42 });
 * const loss = await evaluate();
 */
export function mlmEvalLoss(model: Pick<EncoderModel, 'params' | 'config'>, windows: readonly TrainingWindow[], options: MlmEvalLossOptions): () => Promise<number> {
  const rng = new Rng(options.seed ^ EVAL_STREAM);
  const rows = windows.map((w, i) => maskWindow(w, options.masking, options.mask, rng.fork(i)));
  const batches: PaddedBatch[] = [];
  for (let i = 0; i < rows.length; i += options.batchSize) {
    const b = padBatch(rows.slice(i, i + options.batchSize), options.mask.padId);
    if (b.labels.length > 0) batches.push(b);
  }
  const targets = batches.reduce((a, b) => a + b.labels.length, 0);
  // Each loss is read asynchronously: Node reads a WebGPU buffer no other way.
  return async () => {
    let sum = 0;
    for (const b of batches) {
      const loss = tf.tidy(() => mlmLoss(model, b));
      sum += (await loss.data())[0]! * b.labels.length;
      loss.dispose();
    }
    return targets > 0 ? sum / targets : NaN;
  };
}
