import { tokenSurface, touchesProtected, type BlacklistedTerms, type TrainingText } from './blacklistedTokens.js';
import type { MorphAnalyzer } from '../text/index.js';
import { learnMerges } from './merges.js';
import { morphemeStarts } from './morphemes.js';
import { bertPreTokenize, DEFAULT_WORDPIECE_OPTIONS, WordPieceTokenizer, type WordPieceOptions } from './wordpiece.js';

export interface TrainWordPieceOptions {
  vocabSize: number;
  /** Pairs seen fewer times are never merged (default 2). */
  minFrequency?: number;
  /** Keep at most this many distinct characters in the alphabet, the most frequent (default 1000). */
  limitAlphabet?: number;
  tokenizer?: Partial<WordPieceOptions>;
  /**
   * Learn on BERT's pre-tokens cut again where this analyser's morphemes start, as encoding then reads
   * Korean text ({@link morphemeStarts}).
   */
  morphemes?: MorphAnalyzer;
  onProgress?: (vocab: number) => void;
  /** Terms no learned token may spell, `##` pieces included (the vocabulary ships with the model). */
  blacklisted?: BlacklistedTerms;
}

/**
 * Trains a WordPiece vocabulary the way Hugging Face's trainer does: words are split into characters,
 * word-internal ones carrying the `##` prefix, and the most frequent adjacent pair is merged until the
 * vocabulary reaches `vocabSize`. Pair counts are updated incrementally, only in words that contain the
 * merged pair.
 */
export async function trainWordPiece(texts: AsyncIterable<TrainingText> | Iterable<TrainingText>, options: TrainWordPieceOptions): Promise<WordPieceTokenizer> {
  const tokOptions: WordPieceOptions = { ...DEFAULT_WORDPIECE_OPTIONS, ...options.tokenizer };
  const prefix = tokOptions.continuingPrefix;
  const counts = new Map<string, number>();
  /** Words touching a protected span: their characters, never their merges. */
  const spelledOnly = new Map<string, number>();
  for await (const item of texts) {
    const { text, protect } = typeof item === 'string' ? { text: item, protect: [] } : item;
    const words = bertPreTokenize(text, tokOptions, options.morphemes && (await morphemeStarts(text, options.morphemes)));
    const touches = touchesProtected(protect);
    for (const w of words) {
      const into = touches(w.starts, w.ends) ? spelledOnly : counts;
      into.set(w.text, (into.get(w.text) ?? 0) + 1);
    }
  }

  const charFreq = new Map<string, number>();
  for (const table of [counts, spelledOnly]) for (const [w, c] of table) for (const ch of w) charFreq.set(ch, (charFreq.get(ch) ?? 0) + c);
  const alphabet = new Set([...charFreq].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, options.limitAlphabet ?? 1000).map(([ch]) => ch));

  const vocab: string[] = [...new Set(Object.values(tokOptions.specials))];
  const inVocab = new Set(vocab);
  const add = (t: string) => {
    if (!inVocab.has(t)) {
      inVocab.add(t);
      vocab.push(t);
    }
  };
  const symbolsOf = (w: string) => [...w].map((ch, i) => (i === 0 ? ch : prefix + ch));
  const words: string[][] = [];
  const freqs: number[] = [];
  for (const [w, c] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const chars = [...w];
    if (!chars.every((ch) => alphabet.has(ch))) continue;
    words.push(symbolsOf(w));
    freqs.push(c);
  }
  for (const ch of [...alphabet].sort()) add(ch);
  for (const symbols of words) for (const s of symbols) add(s);
  for (const w of [...spelledOnly.keys()].sort()) if ([...w].every((ch) => alphabet.has(ch))) for (const s of symbolsOf(w)) add(s);

  const minFrequency = options.minFrequency ?? 2;
  const blacklisted = options.blacklisted;
  const allow = blacklisted ? (merged: string) => !blacklisted.has(tokenSurface('wordpiece', merged, prefix)) : undefined;
  learnMerges(
    words,
    freqs,
    Math.max(0, options.vocabSize - vocab.length),
    minFrequency,
    (a, b) => a + (b.startsWith(prefix) ? b.slice(prefix.length) : b),
    (merged) => {
      add(merged);
      if (vocab.length % 500 === 0) options.onProgress?.(vocab.length);
    },
    allow,
  );
  return new WordPieceTokenizer(vocab, tokOptions);
}
