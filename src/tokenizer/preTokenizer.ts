import { isBertPunctuation, isWhitespace, WHITESPACE_CLASS, WORD_CLASS } from './bertText.js';
import { sliceNormalized, type NormalizedText } from './normalizer.js';

/** A word of a normalised text, the unit WordPiece runs on; `starts`/`ends` align each UTF-16 unit to the original text. */
export type PreToken = NormalizedText;

/** What happens to the characters a pre-tokenizer splits on (Hugging Face's `SplitDelimiterBehavior`). */
export type SplitBehavior = 'Removed' | 'Isolated' | 'MergedWithPrevious' | 'MergedWithNext' | 'Contiguous';

/** The pre-tokenizers of tokenizer.json that ppmlm applies before WordPiece. */
export type PreTokenizerConfig =
  | { type: 'BertPreTokenizer' | 'WhitespaceSplit' | 'Whitespace' }
  | { type: 'Punctuation'; behavior: SplitBehavior }
  | { type: 'Sequence'; pretokenizers: PreTokenizerConfig[] };

/** Splits at every character `at` accepts, treating those characters as `behavior` says. */
function splitAt(n: NormalizedText, at: (ch: string, cp: number) => boolean, behavior: SplitBehavior): PreToken[] {
  const out: PreToken[] = [];
  const cut = (to: number) => {
    if (to > from) out.push(sliceNormalized(n, from, to));
    from = to;
  };
  let from = 0;
  let inRun = false;
  for (let i = 0; i < n.text.length; ) {
    const cp = n.text.codePointAt(i)!;
    const j = i + (cp > 0xffff ? 2 : 1);
    const split = at(n.text.slice(i, j), cp);
    if (behavior === 'Contiguous') {
      if (split !== inRun) cut(i);
      inRun = split;
    } else if (split) {
      if (behavior === 'MergedWithPrevious') cut(j);
      else cut(i);
      if (behavior === 'Isolated') cut(j);
      if (behavior === 'Removed') from = j;
    }
    i = j;
  }
  cut(n.text.length);
  return out;
}

// Hugging Face's `Whitespace`: \w+|[^\w\s]+ with Rust's Unicode classes.
const WORD_OR_SYMBOLS = new RegExp(`[${WORD_CLASS}]+|[^${WORD_CLASS}${WHITESPACE_CLASS}]+`, 'gu');

/** Splits a normalised text into pre-tokens as the configured Hugging Face pre-tokenizer does. */
export function preTokenize(config: PreTokenizerConfig | null, n: NormalizedText): PreToken[] {
  if (config === null) return n.text === '' ? [] : [n];
  switch (config.type) {
    case 'WhitespaceSplit':
      return splitAt(n, isWhitespace, 'Removed');
    case 'BertPreTokenizer':
      return splitAt(n, isWhitespace, 'Removed').flatMap((w) => splitAt(w, isBertPunctuation, 'Isolated'));
    case 'Punctuation':
      return splitAt(n, isBertPunctuation, config.behavior);
    case 'Whitespace':
      return [...n.text.matchAll(WORD_OR_SYMBOLS)].map((m) => sliceNormalized(n, m.index, m.index + m[0].length));
    case 'Sequence':
      return config.pretokenizers.reduce<PreToken[]>((pieces, c) => pieces.flatMap((p) => preTokenize(c, p)), [n]);
  }
}
