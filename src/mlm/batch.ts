import type { Rng } from '../engine/random.js';
import { padBatch, type PaddedBatch } from '../model/index.js';
import { IGNORE, mask, type MaskConfig } from './masking.js';
import { eligiblePositions, type StrategyName } from './strategy.js';
import type { TrainingWindow } from './windows.js';

/** A masked batch as flat arrays, ready to become tensors. */
export interface MlmBatch extends PaddedBatch {
  /** Targets that fell on protected (blacklisted) positions: 0 for constrained by construction. */
  protectedTargets: number;
  tokens: number;
}

/**
 * Masks windows and pads them to the longest window of the batch. Row j is masked with `rngOf(j)`:
 * training gives each window a generator of its own (its masks then do not depend on how windows are
 * grouped into batches, so accumulated micro-batches equal one large batch); `() => rng` shares one.
 */
export function makeBatch(windows: readonly TrainingWindow[], strategy: StrategyName, config: MaskConfig & { padId: number; wholeWord?: boolean }, rngOf: (row: number) => Rng): MlmBatch {
  let protectedTargets = 0;
  let tokens = 0;
  const rows = windows.map((w, j) => {
    const masked = mask(w.ids, eligiblePositions(strategy, w), config, rngOf(j), config.wholeWord ? w.words : undefined);
    tokens += w.ids.length;
    const positions: number[] = [];
    const labels: number[] = [];
    for (let i = 0; i < w.ids.length; i++) {
      if (masked.labels[i] === IGNORE) continue;
      positions.push(i);
      labels.push(masked.labels[i]!);
      if (w.protectedMask[i]) protectedTargets++;
    }
    return { ids: masked.inputIds, positions, labels };
  });
  return { ...padBatch(rows, config.padId), protectedTargets, tokens };
}
