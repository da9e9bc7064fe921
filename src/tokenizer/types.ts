import type { AddedToken } from './addedTokens.js';

/**
 * Token ids with the character span each token came from, as Hugging Face `return_offsets_mapping` gives,
 * but in UTF-16 units (JavaScript string indices, what `text.slice` and the blacklist matcher use); Hugging
 * Face counts code points: `codePointOffsets` converts.
 */
export interface Encoding {
  ids: number[];
  /** [start, end) in the original text, UTF-16 units; [0, 0] for the [CLS]/[SEP] of windows. */
  offsets: [number, number][];
  /** True at special tokens ([CLS], [SEP], padding). */
  special: boolean[];
}

export interface SpecialTokens {
  unk: string;
  cls: string;
  sep: string;
  pad: string;
  mask: string;
}

export const BERT_SPECIALS: SpecialTokens = { unk: '[UNK]', cls: '[CLS]', sep: '[SEP]', pad: '[PAD]', mask: '[MASK]' };

/** What every tokenizer offers the rest of ppmlm. */
export interface Tokenizer {
  readonly type: 'wordpiece' | 'bpe';
  /** Every id the model sees: the model's vocabulary, then the added tokens outside it. */
  readonly vocabSize: number;
  readonly modelVocabSize: number;
  readonly addedTokens: readonly AddedToken[];
  readonly specials: SpecialTokens;
  idOf(token: string): number | undefined;
  tokenOf(id: number): string;
  /** Ids of the special tokens, for masking (never targets) and random replacement (never drawn). */
  readonly specialIds: ReadonlySet<number>;
  /**
   * Tokens of a text without [CLS]/[SEP]; special tokens written in the text are matched as Hugging Face
   * matches them. `cuts`, offsets into the text where a Korean morpheme starts, split its words again so no
   * token spans one (a vocabulary learnt on morphemes: see `tokenizeAtMorphemes`).
   */
  tokenize(text: string, cuts?: ReadonlySet<number>): Encoding;
  decode(ids: readonly number[]): string;
}
