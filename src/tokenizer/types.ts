/** Token ids with the character span each token came from, as Hugging Face `return_offsets_mapping` gives. */
export interface Encoding {
  ids: number[];
  /** [start, end) in the original text; [0, 0] for special tokens. */
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
  readonly vocabSize: number;
  readonly specials: SpecialTokens;
  idOf(token: string): number | undefined;
  tokenOf(id: number): string;
  /** Ids of the special tokens, for masking (never targets) and random replacement (never drawn). */
  readonly specialIds: ReadonlySet<number>;
  /** Tokens of a text without special tokens. */
  tokenize(text: string): Encoding;
  decode(ids: readonly number[]): string;
}
