import type { Rng } from '../engine/random.js';
import { IGNORE, mask, type MaskConfig } from './masking.js';
import { eligiblePositions, type StrategyName } from './strategy.js';
import type { TrainingWindow } from './windows.js';

/** A masked batch as flat arrays, ready to become tensors. */
export interface MlmBatch {
  batchSize: number;
  seqLen: number;
  inputIds: Int32Array;
  attentionMask: Int32Array;
  /** Flat positions (row * seqLen + col) of the targets, and their labels. */
  positions: Int32Array;
  labels: Int32Array;
  /** Targets that fell on protected (blacklisted) positions: 0 for constrained by construction. */
  protectedTargets: number;
  tokens: number;
}

/** Masks windows with one seeded rng and pads them to the longest window of the batch. */
export function makeBatch(windows: readonly TrainingWindow[], strategy: StrategyName, config: MaskConfig & { padId: number; wholeWord?: boolean }, rng: Rng): MlmBatch {
  const seqLen = Math.max(...windows.map((w) => w.ids.length));
  const B = windows.length;
  const inputIds = new Int32Array(B * seqLen).fill(config.padId);
  const attentionMask = new Int32Array(B * seqLen);
  const positions: number[] = [];
  const labels: number[] = [];
  let protectedTargets = 0;
  let tokens = 0;
  windows.forEach((w, row) => {
    const masked = mask(w.ids, eligiblePositions(strategy, w), config, rng, config.wholeWord ? w.words : undefined);
    inputIds.set(masked.inputIds, row * seqLen);
    attentionMask.fill(1, row * seqLen, row * seqLen + w.ids.length);
    tokens += w.ids.length;
    for (let i = 0; i < w.ids.length; i++) {
      if (masked.labels[i] === IGNORE) continue;
      positions.push(row * seqLen + i);
      labels.push(masked.labels[i]!);
      if (w.protectedMask[i]) protectedTargets++;
    }
  });
  return { batchSize: B, seqLen, inputIds, attentionMask, positions: Int32Array.from(positions), labels: Int32Array.from(labels), protectedTargets, tokens };
}
