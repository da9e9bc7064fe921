import { Rng } from '../engine/random.js';
import type { BlacklistEntry } from '../identifiers/index.js';
import type { Tokenizer } from '../tokenizer/index.js';
import type { BatchMaskConfig } from './batch.js';
import { randomPool } from './masking.js';

/**
 * What a masked-LM run draws, epoch by epoch, defined once so that `finetune` and `export-dataset --premasked`
 * (which writes the same masks for another trainer) cannot drift apart.
 */

/** Consecutive windows of a document share a quarter of a window unless told otherwise. */
export const trainingStride = (seqLen: number, stride?: number): number => stride ?? Math.floor(seqLen / 4);

/** The window order of an epoch: a seeded shuffle, the same on every run and after a resume. */
export function epochOrder(n: number, seed: number, epoch: number): number[] {
  return new Rng(seed).fork(epoch).shuffle(Array.from({ length: n }, (_, i) => i));
}

/**
 * The masking generator of the window at `slot` of an epoch's order, independent of every other window:
 * resuming mid-epoch is exact, and masks do not depend on the batch size (accumulated micro-batches
 * equal one large batch).
 */
export const windowRng = (seed: number, epoch: number, slot: number): Rng => new Rng(seed ^ 0x5bd1e995).fork(epoch * 1_000_003 + slot);

export interface MaskSettings {
  maskProb: number;
  wholeWord?: boolean;
  /** Random replacements never draw the tokens of blacklisted terms (the CLI's default). */
  noRandomBlacklisted?: boolean;
  /** No gradient into the input word embeddings at protected positions (`--freeze-protected-embeddings`). */
  freezeProtectedInputs?: boolean;
  /** Protected positions hidden as attention keys (`--hide-protected-context`). */
  hideProtectedKeys?: boolean;
}

/** The mask draw of a run: the mask token, the pool of random replacements (specials, and blacklisted terms' tokens when asked, left out), padding. */
export function maskConfigFor(tokenizer: Tokenizer, entries: readonly Pick<BlacklistEntry, 'term'>[], settings: MaskSettings): BatchMaskConfig {
  const exclude = new Set(tokenizer.specialIds);
  if (settings.noRandomBlacklisted) {
    for (const e of entries) for (const id of tokenizer.tokenize(e.term).ids) exclude.add(id);
  }
  return {
    probability: settings.maskProb,
    maskId: tokenizer.idOf(tokenizer.specials.mask)!,
    randomPool: randomPool(tokenizer.vocabSize, exclude),
    padId: tokenizer.idOf(tokenizer.specials.pad)!,
    wholeWord: settings.wholeWord === true,
    ...(settings.freezeProtectedInputs && { freezeProtectedInputs: true }),
    ...(settings.hideProtectedKeys && { hideProtectedKeys: true }),
  };
}
