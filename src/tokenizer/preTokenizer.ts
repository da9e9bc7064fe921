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

/** Splits where `behaviorOf` gives a behaviour for a character, treating that character as it says. */
function splitAt(n: NormalizedText, behaviorOf: (ch: string, cp: number) => SplitBehavior | undefined): PreToken[] {
  const out: PreToken[] = [];
  let from = 0;
  const cut = (to: number) => {
    if (to > from) out.push(sliceNormalized(n, from, to));
    from = to;
  };
  let inRun = false;
  for (let i = 0; i < n.text.length; ) {
    const cp = n.text.codePointAt(i)!;
    const j = i + (cp > 0xffff ? 2 : 1);
    const behavior = behaviorOf(cp > 0xffff ? n.text.slice(i, j) : n.text[i]!, cp);
    // A run of Contiguous characters is one piece: cut where one starts and where it ends.
    if (inRun !== (behavior === 'Contiguous')) cut(i);
    inRun = behavior === 'Contiguous';
    if (behavior === 'Removed') {
      cut(i);
      from = j;
    } else if (behavior === 'Isolated') {
      cut(i);
      cut(j);
    } else if (behavior === 'MergedWithPrevious') cut(j);
    else if (behavior === 'MergedWithNext') cut(i);
    i = j;
  }
  cut(n.text.length);
  return out;
}

// Hugging Face's `Whitespace`: \w+|[^\w\s]+ with Rust's Unicode classes.
const WORD_OR_SYMBOLS = new RegExp(`[${WORD_CLASS}]+|[^${WORD_CLASS}${WHITESPACE_CLASS}]+`, 'gu');

/**
 * Cuts pre-tokens again at `cuts`, offsets into the original text (where a Korean morpheme starts), so no
 * token spans one: 홍길동이 → 홍길동 | 이. Pieces only ever split a pre-token, never join two.
 */
export function cutPreTokens(preTokens: readonly PreToken[], cuts: ReadonlySet<number>): PreToken[] {
  const out: PreToken[] = [];
  for (const p of preTokens) {
    let from = 0;
    for (let k = 1; k < p.text.length; k++) {
      const original = p.starts[k]!;
      if (original !== p.starts[k - 1] && cuts.has(original)) {
        out.push(sliceNormalized(p, from, k));
        from = k;
      }
    }
    out.push(from === 0 ? p : sliceNormalized(p, from, p.text.length));
  }
  return out;
}

/** Splits a normalised text into pre-tokens as the configured Hugging Face pre-tokenizer does. */
export function preTokenize(config: PreTokenizerConfig | null, n: NormalizedText): PreToken[] {
  if (config === null) return n.text === '' ? [] : [n];
  switch (config.type) {
    case 'WhitespaceSplit':
      return splitAt(n, (ch) => (isWhitespace(ch) ? 'Removed' : undefined));
    case 'BertPreTokenizer':
      // Whitespace removed, then punctuation isolated: one pass, as no character is both.
      return splitAt(n, (ch, cp) => (isWhitespace(ch) ? 'Removed' : isBertPunctuation(ch, cp) ? 'Isolated' : undefined));
    case 'Punctuation':
      return splitAt(n, (ch, cp) => (isBertPunctuation(ch, cp) ? config.behavior : undefined));
    case 'Whitespace':
      return [...n.text.matchAll(WORD_OR_SYMBOLS)].map((m) => sliceNormalized(n, m.index, m.index + m[0].length));
    case 'Sequence':
      return config.pretokenizers.reduce<PreToken[]>((pieces, c) => pieces.flatMap((p) => preTokenize(c, p)), [n]);
  }
}
