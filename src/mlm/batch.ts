import type { Rng } from '../engine/random.js';
import { padBatch, type BatchRow, type PaddedBatch } from '../model/index.js';
import { IGNORE, mask, type MaskConfig } from './masking.js';
import { eligiblePositions, type MaskingPolicy } from './strategy.js';
import type { TrainingWindow } from './windows.js';

/** A masked batch as flat arrays, ready to become tensors. */
export interface MlmBatch extends PaddedBatch {
  /** Targets that fell on protected (blacklisted) positions: 0 for constrained by construction. */
  protectedTargets: number;
  tokens: number;
}

/** The masking settings of a run: the mask draw, padding, and whether whole words are selected. */
export type BatchMaskConfig = MaskConfig & {
  padId: number;
  wholeWord?: boolean;
  /** Mark protected positions as frozen inputs (see PaddedBatch.frozenInputs). */
  freezeProtectedInputs?: boolean;
  /** Hide protected positions as attention keys: no position reads them (they stop being context). */
  hideProtectedKeys?: boolean;
};

/** One masked window as a batch row, with how many of its targets fell on protected positions. */
export interface MaskedRow extends BatchRow {
  protectedTargets: number;
}

/** Masks one window with the masking policy's eligible positions, drawing from `rng`. */
export function maskWindow(w: TrainingWindow, masking: MaskingPolicy, config: BatchMaskConfig, rng: Rng): MaskedRow {
  const masked = mask(w.ids, eligiblePositions(masking, w), config, rng, config.wholeWord ? w.words : undefined);
  const positions: number[] = [];
  const labels: number[] = [];
  let protectedTargets = 0;
  for (let i = 0; i < w.ids.length; i++) {
    if (masked.labels[i] === IGNORE) continue;
    positions.push(i);
    labels.push(masked.labels[i]!);
    if (w.protectedMask[i]) protectedTargets++;
  }
  return { ids: masked.inputIds, positions, labels, protectedTargets };
}

/**
 * Masks windows and pads them to the longest window of the batch. Row j is masked with `rngOf(j)`:
 * training gives each window a generator of its own (its masks then do not depend on how windows are
 * grouped into batches, so accumulated micro-batches equal one large batch); `() => rng` shares one.
 */
export function makeBatch(windows: readonly TrainingWindow[], masking: MaskingPolicy, config: BatchMaskConfig, rngOf: (row: number) => Rng): MlmBatch {
  const rows = windows.map((w, j) => maskWindow(w, masking, config, rngOf(j)));
  const padded = padBatch(rows, config.padId);
  if (config.freezeProtectedInputs) {
    const frozen = new Uint8Array(padded.batchSize * padded.seqLen);
    windows.forEach((w, row) => frozen.set(w.protectedMask, row * padded.seqLen));
    padded.frozenInputs = frozen;
  }
  if (config.hideProtectedKeys) {
    windows.forEach((w, row) => w.protectedMask.forEach((p, i) => p && (padded.attentionMask[row * padded.seqLen + i] = 0)));
  }
  return { ...padded, protectedTargets: rows.reduce((a, r) => a + r.protectedTargets, 0), tokens: windows.reduce((a, w) => a + w.ids.length, 0) };
}
