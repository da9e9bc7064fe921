import type { TrainOptions } from '../engine/index.js';
import { parseIntFlag, parseNumberFlag } from './parseFlags.js';

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
    batchSize: parseIntFlag(flags.batchSize, '--batch-size', { min: 1 }),
    accumulate: parseIntFlag(flags.gradAccum, '--grad-accum', { min: 1 }),
    seqLen: parseIntFlag(flags.seqLen, '--seq-len', { min: 8, max: 4096 }),
    lr: parseNumberFlag(flags.lr, '--lr', { min: 0, max: 1 }),
    warmupRatio: parseNumberFlag(flags.warmupRatio, '--warmup-ratio', { min: 0, max: 1 }),
    weightDecay: parseNumberFlag(flags.weightDecay, '--weight-decay', { min: 0, max: 1 }),
  };
}
