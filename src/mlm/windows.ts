import type { Document } from '../corpus/index.js';
import { BlacklistMatcher, protectedMask, type BlacklistEntry } from '../identifiers/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { tokenizeAtMorphemes, windowsOf, type Encoding, type Tokenizer } from '../tokenizer/index.js';

/** One model input window of a document, with what masking needs precomputed once (not per step). */
export interface TrainingWindow {
  doc: number;
  ids: Int32Array;
  /** 1 at [CLS], [SEP] (and padding, added at batching). */
  special: Uint8Array;
  /** 1 at every token overlapping an occurrence of a blacklisted term. */
  protectedMask: Uint8Array;
  /** Word index per token (-1 at special tokens), for whole-word masking. */
  words: Int32Array;
}

export interface WindowStats {
  documents: number;
  windows: number;
  tokens: number;
  protectedTokens: number;
}

/**
 * Word index per token from offsets alone, so whole-word masking works for any tokenizer: a token
 * continues the previous word when it starts where that one ended and both sides are letters or digits.
 */
export function wordIndex(enc: Encoding, text: string): Int32Array {
  const out = new Int32Array(enc.ids.length).fill(-1);
  let word = -1;
  let prevEnd = -1;
  const alnum = /[\p{L}\p{M}\p{N}]/u;
  for (let i = 0; i < enc.ids.length; i++) {
    if (enc.special[i]) {
      prevEnd = -1;
      continue;
    }
    const [s, e] = enc.offsets[i]!;
    const joined = s === prevEnd && alnum.test(text[s] ?? '') && alnum.test(text[s - 1] ?? '');
    if (!joined) word++;
    out[i] = word;
    prevEnd = e;
  }
  return out;
}

export interface BuildWindowsOptions {
  seqLen: number;
  stride?: number;
  /** Terms whose occurrences are protected; undefined or empty protects nothing. */
  blacklist?: readonly Pick<BlacklistEntry, 'term'>[];
  analyzer?: MorphAnalyzer;
  /** Cut Hangul text at this analyser's morphemes before WordPiece or BPE: the vocabulary was learnt on them. */
  morphemes?: MorphAnalyzer;
  /** Terms protected in one document only besides `blacklist`: its unit's own (see `ownTextBlacklists`). */
  ownTerms?: (doc: Document) => readonly Pick<BlacklistEntry, 'term'>[] | undefined;
}

/**
 * Tokenises documents into sliding windows and marks the protected positions ({@link protectedMask}, the
 * definition the audit shares): every subword token whose character span overlaps an occurrence of a
 * blacklisted term (blacklist matcher + tokenizer offsets), or of one of its unit's own terms.
 */
export async function buildWindows(docs: readonly Document[], tokenizer: Tokenizer, options: BuildWindowsOptions): Promise<{ windows: TrainingWindow[]; stats: WindowStats }> {
  const matcher = options.blacklist && options.blacklist.length > 0 ? new BlacklistMatcher(options.blacklist) : undefined;
  // One matcher per unit, shared by its documents.
  const ownMatchers = new WeakMap<object, BlacklistMatcher>();
  const windows: TrainingWindow[] = [];
  const stats: WindowStats = { documents: docs.length, windows: 0, tokens: 0, protectedTokens: 0 };
  for (let d = 0; d < docs.length; d++) {
    const text = docs[d]!.text;
    const matches = matcher ? await matcher.match(text, options.analyzer) : [];
    const own = options.ownTerms?.(docs[d]!);
    if (own && own.length > 0) {
      let ownMatcher = ownMatchers.get(own);
      if (ownMatcher === undefined) ownMatchers.set(own, (ownMatcher = new BlacklistMatcher(own)));
      matches.push(...(await ownMatcher.match(text, options.analyzer)));
    }
    const body = await tokenizeAtMorphemes(tokenizer, text, options.morphemes);
    for (const w of windowsOf(tokenizer, body, { maxLength: options.seqLen, stride: options.stride ?? 0 })) {
      const mask = protectedMask(w.offsets, matches, w.special);
      stats.tokens += w.special.filter((s) => !s).length;
      stats.protectedTokens += mask.reduce((a, b) => a + b, 0);
      windows.push({ doc: d, ids: Int32Array.from(w.ids), special: Uint8Array.from(w.special, Number), protectedMask: mask, words: wordIndex(w, text) });
    }
  }
  stats.windows = windows.length;
  return { windows, stats };
}
