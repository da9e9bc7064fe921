import type { Encoding, Tokenizer } from './types.js';

export interface WindowOptions {
  /** Tokens per window including [CLS] and [SEP]. */
  maxLength: number;
  /** Tokens shared by consecutive windows (default 0); long documents are covered by sliding windows. */
  stride?: number;
}

/**
 * Encodes a document into model inputs: [CLS] window [SEP], as many windows as needed, each overlapping
 * the previous one by `stride` tokens. Every token of the document is in at least one window.
 */
export function encodeWindows(tokenizer: Tokenizer, text: string, options: WindowOptions): Encoding[] {
  return windowsOf(tokenizer, tokenizer.tokenize(text), options);
}

/** The windows of an encoding without special tokens (see {@link encodeWindows}). */
export function windowsOf(tokenizer: Tokenizer, body: Encoding, options: WindowOptions): Encoding[] {
  return windowRanges(body.ids.length, options).map(([start, end]) => withSpecialTokens(tokenizer, body, start, end));
}

/**
 * [CLS] tokens [SEP] (<s> and </s> for RoBERTa), the specials at offsets [0, 0], as a model reads a text and
 * as Hugging Face's tokenizer gives it with `add_special_tokens`: the whole encoding, or its tokens [start, end).
 */
export function withSpecialTokens(tokenizer: Tokenizer, body: Encoding, start = 0, end = body.ids.length): Encoding {
  const cls = tokenizer.idOf(tokenizer.specials.cls)!;
  const sep = tokenizer.idOf(tokenizer.specials.sep)!;
  return {
    ids: [cls, ...body.ids.slice(start, end), sep],
    offsets: [[0, 0], ...body.offsets.slice(start, end), [0, 0]],
    special: [true, ...body.special.slice(start, end), true],
  };
}

/** The [start, end) token ranges of the windows over `length` tokens (one, empty, when there are none). */
export function windowRanges(length: number, options: WindowOptions): [start: number, end: number][] {
  const inner = options.maxLength - 2;
  if (inner < 1) throw new RangeError(`maxLength ${options.maxLength} leaves no room between [CLS] and [SEP]`);
  const stride = options.stride ?? 0;
  if (stride < 0 || stride >= inner) throw new RangeError(`stride must be in [0, ${inner - 1}]`);
  const out: [number, number][] = [];
  for (let start = 0; ; start += inner - stride) {
    const end = Math.min(length, start + inner);
    out.push([start, end]);
    if (end >= length) return out;
  }
}
