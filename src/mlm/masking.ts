import type { Rng } from '../engine/random.js';

/** Label value at positions that are not prediction targets (Hugging Face's ignore index). */
export const IGNORE = -100;

export interface MaskConfig {
  /** Probability that an eligible position (or word) is selected (default 0.15). */
  probability: number;
  maskId: number;
  /** Ids a random replacement is drawn from: see {@link randomPool}. */
  randomPool: Int32Array;
  /** Shares of selected positions replaced by [MASK] and by a random token (default 0.8, 0.1; the rest unchanged). */
  maskShare?: number;
  randomShare?: number;
}

export interface MaskedExample {
  inputIds: Int32Array;
  /** Original id at selected positions, IGNORE elsewhere. */
  labels: Int32Array;
}

/**
 * BERT masking as a pure function over typed arrays. `eligible[i]` says whether position i may be a
 * target: 0 for special tokens, padding and, for the constrained strategy, protected (blacklisted)
 * positions. Two uniforms are drawn for EVERY position, eligible or not, so strategies that differ only in
 * eligibility see the same random numbers: constrained's targets are exactly standard's minus the
 * protected positions, and an empty blacklist gives standard bit for bit.
 *
 * With `words` (word index per position, -1 for none), selection is per word: a word is selected when its
 * first position's draw is below p, and then all its positions are targets, provided every one is eligible.
 */
export function mask(ids: Int32Array, eligible: Uint8Array, config: MaskConfig, rng: Rng, words?: Int32Array): MaskedExample {
  const n = ids.length;
  const inputIds = Int32Array.from(ids);
  const labels = new Int32Array(n).fill(IGNORE);
  const p = config.probability;
  const maskShare = config.maskShare ?? 0.8;
  const randomShare = config.randomShare ?? 0.1;
  const selectU = new Float64Array(n);
  const actionU = new Float64Array(n);
  const randomU = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    selectU[i] = rng.next();
    actionU[i] = rng.next();
    randomU[i] = rng.next();
  }
  let selected: Uint8Array;
  if (words === undefined) {
    selected = new Uint8Array(n);
    for (let i = 0; i < n; i++) selected[i] = eligible[i] && selectU[i]! < p ? 1 : 0;
  } else selected = selectWholeWords(words, eligible, selectU, p);
  for (let i = 0; i < n; i++) {
    if (!selected[i]) continue;
    labels[i] = ids[i]!;
    const a = actionU[i]!;
    if (a < maskShare) inputIds[i] = config.maskId;
    else if (a < maskShare + randomShare) inputIds[i] = config.randomPool[Math.floor(randomU[i]! * config.randomPool.length)]!;
  }
  return { inputIds, labels };
}

function selectWholeWords(words: Int32Array, eligible: Uint8Array, selectU: Float64Array, p: number): Uint8Array {
  const n = words.length;
  const selected = new Uint8Array(n);
  for (let i = 0; i < n; ) {
    const w = words[i]!;
    let end = i + 1;
    while (end < n && w !== -1 && words[end] === w) end++;
    let ok = w !== -1 && selectU[i]! < p;
    for (let k = i; ok && k < end; k++) ok = eligible[k] === 1;
    if (ok) selected.fill(1, i, end);
    i = end;
  }
  return selected;
}

/**
 * The ids random replacements are drawn from: the vocabulary minus special tokens and, with
 * --no-random-blacklisted, minus the tokens of blacklisted terms.
 */
export function randomPool(vocabSize: number, exclude: ReadonlySet<number>): Int32Array {
  const pool: number[] = [];
  for (let id = 0; id < vocabSize; id++) if (!exclude.has(id)) pool.push(id);
  return Int32Array.from(pool);
}
