import type { TrainOptions } from '../engine/index.js';
import { FINETUNE_RANGES } from '../mlm/index.js';
import { parseIntFlag, parseNumberFlag, parseRangedFlag } from './parseFlags.js';

/** The flags `trainingOptions` (main.ts) declares, as commander hands them over. */
export interface TrainingFlags {
  epochs: string;
  maxSteps?: string;
  batchSize: string;
  gradAccum: string;
  seqLen: string;
  lr: string;
  warmupRatio: string;
  weightDecay: string;
  resume?: boolean;
}

/** The parsed training flags, named as the library's options name them. */
export interface TrainingSettings extends Pick<TrainOptions, 'epochs' | 'maxSteps' | 'lr' | 'accumulate' | 'warmupRatio' | 'weightDecay'> {
  batchSize: number;
  seqLen: number;
}

/** Parses and range-checks the shared training flags (UsageError naming the flag, exit 2). */
export function parseTrainingFlags(flags: TrainingFlags): TrainingSettings {
  return {
    epochs: parseIntFlag(flags.epochs, '--epochs', { min: 1 }),
    maxSteps: flags.maxSteps === undefined ? undefined : parseIntFlag(flags.maxSteps, '--max-steps', { min: 1 }),
    batchSize: parseRangedFlag(flags.batchSize, '--batch-size', FINETUNE_RANGES.batchSize),
    accumulate: parseIntFlag(flags.gradAccum, '--grad-accum', { min: 1 }),
    seqLen: parseRangedFlag(flags.seqLen, '--seq-len', FINETUNE_RANGES.seqLen),
    lr: parseRangedFlag(flags.lr, '--lr', FINETUNE_RANGES.lr),
    warmupRatio: parseNumberFlag(flags.warmupRatio, '--warmup-ratio', { min: 0, max: 1 }),
    weightDecay: parseNumberFlag(flags.weightDecay, '--weight-decay', { min: 0, max: 1 }),
  };
}
