import { Rng } from '../engine/random.js';
import type { BlacklistEntry } from '../identifiers/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { morphemeStarts, type Encoding, type Tokenizer } from '../tokenizer/index.js';
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
  /**
   * Let random replacements draw the tokens of blacklisted terms. Default (the only place it is set): never,
   * so that a random replacement cannot put an identifier where the text had none.
   */
  randomBlacklisted?: boolean;
  /** No gradient into the input word embeddings at protected positions (`--freeze-protected-embeddings`). */
  freezeProtectedInputs?: boolean;
  /** Protected positions hidden as attention keys (`--hide-protected-context`). */
  hideProtectedKeys?: boolean;
}

/** The case forms the case-insensitive matcher protects: as stored (case-folded), Capitalised Words, UPPER. */
const caseForms = (term: string) => [...new Set([term, term.replace(/(^|\s)(\p{L})/gu, (_, s: string, c: string) => s + c.toUpperCase()), term.toUpperCase()])];

/**
 * Every token a blacklisted term can become inside a text where the matcher protects it: each case form,
 * at the start of a text and after a space. A term tokenised alone misses forms: byte-level BPE gives a
 * word after a space its own `Ġ` token, and a cased vocabulary has `Alice` apart from `alice`. With
 * `morphemes` (a vocabulary learnt on them), a Korean term is also cut as training text is cut, in both
 * places: an analyser may cut a name it does not know (오우|혁), making a word-initial piece of what is
 * otherwise `##혁`. mecab reads words in context, so a name inside a sentence may still be cut otherwise.
 */
export async function blacklistedTokenIds(tokenizer: Tokenizer, entries: readonly Pick<BlacklistEntry, 'term'>[], morphemes?: MorphAnalyzer): Promise<Set<number>> {
  const ids = new Set<number>();
  const add = (enc: Encoding, from: number, to: number) => enc.ids.forEach((id, i) => {
    const [s, e] = enc.offsets[i]!;
    if (!enc.special[i] && e > from && s < to) ids.add(id);
  });
  for (const { term } of entries) {
    for (const form of caseForms(term)) {
      // The form's own cut, read once and used in both places (byte-level BPE keeps a word's `Ġ` after a
      // space, cut or not); a form without Hangul has none.
      const cuts = morphemes && (await morphemeStarts(form, morphemes));
      for (const before of ['', 'x ']) {
        const text = before + form;
        add(tokenizer.tokenize(text), before.length, text.length);
        if (cuts) add(tokenizer.tokenize(text, new Set([...cuts].map((c) => c + before.length))), before.length, text.length);
      }
    }
  }
  return ids;
}

/**
 * The mask draw of a run: the mask token, the pool of random replacements (specials, and blacklisted terms'
 * tokens when asked, left out), padding. `morphemes`: the analyser training text is cut with, if any.
 */
export async function maskConfigFor(tokenizer: Tokenizer, entries: readonly Pick<BlacklistEntry, 'term'>[], settings: MaskSettings, morphemes?: MorphAnalyzer): Promise<BatchMaskConfig> {
  const exclude = new Set(tokenizer.specialIds);
  if (settings.randomBlacklisted !== true) for (const id of await blacklistedTokenIds(tokenizer, entries, morphemes)) exclude.add(id);
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
