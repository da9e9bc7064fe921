import type { MorphAnalyzer } from '../text/index.js';
import { tokenSurface, touchesProtected, type BlacklistedTerms, type TrainingText } from './blacklistedTokens.js';
import { BpeTokenizer, ROBERTA_SPECIALS } from './bpe.js';
import { BYTE_TO_CHAR, byteLevelPieces, byteLevelWords } from './byteLevel.js';
import { morphemeStarts } from './morphemes.js';
import { unnormalized } from './normalizer.js';
import { learnMerges } from './merges.js';

export interface TrainBpeOptions {
  vocabSize: number;
  minFrequency?: number;
  addPrefixSpace?: boolean;
  /** Learn on GPT-2's pre-tokens cut again where this analyser's morphemes start, as encoding then reads Korean text ({@link morphemeStarts}). */
  morphemes?: MorphAnalyzer;
  onProgress?: (vocab: number) => void;
  /** Terms no learned token may spell, leading space aside (the vocabulary ships with the model). */
  blacklisted?: BlacklistedTerms;
}

/**
 * Trains a byte-level BPE vocabulary (the RoBERTa tokenizer's kind): the 256 byte symbols, then merges of
 * the most frequent adjacent pairs until `vocabSize`.
 */
export async function trainBpe(texts: AsyncIterable<TrainingText> | Iterable<TrainingText>, options: TrainBpeOptions): Promise<BpeTokenizer> {
  const addPrefixSpace = options.addPrefixSpace ?? false;
  const counts = new Map<string, number>();
  for await (const item of texts) {
    const { text, protect } = typeof item === 'string' ? { text: item, protect: [] } : item;
    const cuts = options.morphemes && (await morphemeStarts(text, options.morphemes));
    const touches = touchesProtected(protect);
    // A piece touching a protected span is learned from not at all: every byte is in the alphabet already.
    const pieces =
      cuts === undefined && protect.length === 0
        ? byteLevelWords(text, addPrefixSpace)
        : byteLevelPieces(unnormalized(text), addPrefixSpace, cuts).flatMap((p) => (touches(p.charStart, p.charEnd) ? [] : [p.text]));
    for (const p of pieces) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  const vocab: string[] = [ROBERTA_SPECIALS.cls, ROBERTA_SPECIALS.pad, ROBERTA_SPECIALS.sep, ROBERTA_SPECIALS.unk, ...BYTE_TO_CHAR];
  const entries = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const words = entries.map(([w]) => [...w]);
  const freqs = entries.map(([, c]) => c);
  const seen = new Set(vocab);
  const blacklisted = options.blacklisted;
  const allow = blacklisted ? (merged: string) => !blacklisted.has(tokenSurface('bpe', merged)) : undefined;
  const merges = learnMerges(
    words,
    freqs,
    Math.max(0, options.vocabSize - vocab.length - 1),
    options.minFrequency ?? 2,
    (a, b) => a + b,
    (merged) => {
      if (!seen.has(merged)) {
        seen.add(merged);
        vocab.push(merged);
      }
      if (vocab.length % 500 === 0) options.onProgress?.(vocab.length);
    },
    allow,
  );
  vocab.push(ROBERTA_SPECIALS.mask);
  return new BpeTokenizer(vocab, merges, { addPrefixSpace, specials: ROBERTA_SPECIALS });
}
