import { isWhitespace, WORD_CLASS } from './bertText.js';
import { normalize, sliceNormalized, unnormalized, type NormalizedText, type NormalizerConfig } from './normalizer.js';

/** A token matched in the text before the model runs (tokenizer.json's `added_tokens`): special tokens, `[PHONE]`. */
export interface AddedToken {
  id: number;
  content: string;
  /** Special tokens are never masking targets and are skipped when decoding. */
  special: boolean;
  /** Matched in the normalised text (lower-cased, ...) rather than the raw text. */
  normalized: boolean;
  /** Also takes the whitespace to its left (RoBERTa's `<mask>`) or right. */
  lstrip: boolean;
  rstrip: boolean;
  /** Only matched as a whole word. */
  singleWord: boolean;
}

/** The added token a special token is by default: matched in the raw text, stripping nothing. */
export function specialAddedToken(id: number, content: string, lstrip = false): AddedToken {
  return { id, content, special: true, normalized: false, lstrip, rstrip: false, singleWord: false };
}

/** A part of a text: an added token (with the text it matched) or normalised text for the model. */
export interface Segment {
  added?: AddedToken;
  text: NormalizedText;
}

// What `single_word` tokens may not touch: a \w character (Rust regex's, so ZWJ too).
const WORD_CHAR = new RegExp(`[${WORD_CLASS}]`, 'u');

/** Whether the character ending before `i` (or starting at `i`) is a word character; surrogate pairs read whole. */
function wordCharAt(text: string, i: number, before: boolean): boolean {
  if (before ? i <= 0 : i >= text.length) return false;
  const low = before ? text.charCodeAt(i - 1) : 0;
  const at = before ? (low >= 0xdc00 && low <= 0xdfff && i >= 2 ? i - 2 : i - 1) : i;
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** Leftmost-longest, non-overlapping matches of the tokens in `text`, widened by lstrip/rstrip. */
function matches(text: string, tokens: readonly { match: string; token: AddedToken }[]): [number, number, AddedToken][] {
  const out: [number, number, AddedToken][] = [];
  const next = tokens.map((t) => text.indexOf(t.match));
  let pos = 0;
  for (;;) {
    let best = -1;
    for (let k = 0; k < tokens.length; k++) {
      if (next[k]! < pos && next[k] !== -1) next[k] = text.indexOf(tokens[k]!.match, pos);
      const at = next[k]!;
      if (at !== -1 && (best === -1 || at < next[best]! || (at === next[best] && tokens[k]!.match.length > tokens[best]!.match.length))) best = k;
    }
    if (best === -1) return out;
    const { match, token } = tokens[best]!;
    let start = next[best]!;
    let stop = start + match.length;
    if (token.singleWord && (wordCharAt(text, start, true) || wordCharAt(text, stop, false))) {
      next[best] = text.indexOf(match, start + 1);
      continue;
    }
    const floor = out.at(-1)?.[1] ?? 0;
    while (token.lstrip && start > floor && isWhitespace(text[start - 1]!)) start--;
    while (token.rstrip && stop < text.length && isWhitespace(text[stop]!)) stop++;
    out.push([start, stop, token]);
    pos = stop;
  }
}

/** Cuts a normalised text at the matches of `tokens` (matched against `match`). */
function cut(n: NormalizedText, tokens: readonly { match: string; token: AddedToken }[], rest: (n: NormalizedText) => Segment[]): Segment[] {
  const out: Segment[] = [];
  let from = 0;
  for (const [start, stop, token] of tokens.length === 0 ? [] : matches(n.text, tokens)) {
    if (start > from) out.push(...rest(sliceNormalized(n, from, start)));
    out.push({ added: token, text: sliceNormalized(n, start, stop) });
    from = stop;
  }
  if (from < n.text.length || out.length === 0) out.push(...rest(sliceNormalized(n, from, n.text.length)));
  return out;
}

/**
 * Hugging Face's order: tokens with `normalized: false` are found in the raw text, the rest is normalised,
 * then tokens with `normalized: true` are found in it (their content normalised the same way).
 */
export class AddedTokenSplitter {
  private readonly raw: { match: string; token: AddedToken }[];
  private readonly normalized: { match: string; token: AddedToken }[];

  constructor(
    tokens: readonly AddedToken[],
    private readonly normalizer: NormalizerConfig | null,
  ) {
    const usable = tokens.filter((t) => t.content !== '');
    this.raw = usable.filter((t) => !t.normalized).map((token) => ({ match: token.content, token }));
    this.normalized = usable.filter((t) => t.normalized).map((token) => ({ match: normalize(normalizer, unnormalized(token.content)).text, token }));
  }

  split(text: string): Segment[] {
    return cut(unnormalized(text), this.raw, (piece) => cut(normalize(this.normalizer, piece), this.normalized, (n) => (n.text === '' ? [] : [{ text: n }])));
  }
}
