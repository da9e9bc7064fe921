import { decompose, isCjk, isDroppedControl, isWhitespace, lowercaseChar, withoutAccents } from './bertText.js';

/**
 * A text after normalisation with, for each of its UTF-16 units, the [start, end) in the original text of
 * the character it came from (Hugging Face's `NormalizedString` alignments), so every token can point back
 * at the characters it covers, however many were dropped, decomposed or lower-cased on the way.
 */
export interface NormalizedText {
  text: string;
  starts: number[];
  ends: number[];
}

/** The normalisers of tokenizer.json that ppmlm applies (the ones BERT and RoBERTa tokenizers use). */
export type NormalizerConfig =
  | { type: 'BertNormalizer'; clean_text: boolean; handle_chinese_chars: boolean; strip_accents: boolean | null; lowercase: boolean }
  | { type: 'Lowercase' | 'StripAccents' | 'NFD' | 'NFKD' | 'NFC' | 'NFKC' }
  | { type: 'Strip'; left: boolean; right: boolean }
  | { type: 'Sequence'; normalizers: NormalizerConfig[] };

/** The text itself: every unit aligned to its own code point. */
export function unnormalized(text: string, from = 0, to = text.length): NormalizedText {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = from; i < to; ) {
    const width = (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
    for (let k = 0; k < width; k++) {
      starts.push(i);
      ends.push(i + width);
    }
    i += width;
  }
  return { text: text.slice(from, to), starts, ends };
}

/** [from, to) of a normalised text, in its units. */
export function sliceNormalized(n: NormalizedText, from: number, to: number): NormalizedText {
  return { text: n.text.slice(from, to), starts: n.starts.slice(from, to), ends: n.ends.slice(from, to) };
}

/** Rewrites a normalised text cluster by cluster; every unit a cluster becomes spans the cluster's original characters. */
function rewrite(n: NormalizedText, f: (cluster: string, cp: number) => string, clusterEnd: (text: string, i: number) => number = nextCodePoint): NormalizedText {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < n.text.length; ) {
    const j = clusterEnd(n.text, i);
    const cluster = n.text.slice(i, j);
    const out = f(cluster, n.text.codePointAt(i)!);
    if (out === cluster) {
      // Unchanged: each unit keeps its own alignment (a base letter and a mark that do not compose).
      text += out;
      for (let k = i; k < j; k++) {
        starts.push(n.starts[k]!);
        ends.push(n.ends[k]!);
      }
    } else if (j - i === nextCodePoint(n.text, i) - i) {
      // One character became others (ﬁ → fi, é → e + ◌́): all of them come from it.
      text += out;
      for (let k = 0; k < out.length; k++) {
        starts.push(n.starts[i]!);
        ends.push(n.ends[j - 1]!);
      }
    } else {
      // Several composed (e + ◌́ → é): the k-th output character comes from the k-th input one (the last
      // for any beyond), as Hugging Face aligns them; the marks composed away have no character of their own.
      const inputs: number[] = [];
      for (let k = i; k < j; k = nextCodePoint(n.text, k)) inputs.push(k);
      let k = 0;
      for (const ch of out) {
        const from = inputs[Math.min(k++, inputs.length - 1)]!;
        text += ch;
        for (let u = 0; u < ch.length; u++) {
          starts.push(n.starts[from]!);
          ends.push(n.ends[nextCodePoint(n.text, from) - 1]!);
        }
      }
    }
    i = j;
  }
  return { text, starts, ends };
}

function nextCodePoint(text: string, i: number): number {
  return i + ((text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1);
}

const COMBINING = /[\p{M}\u1160-\u11ff]/u;

/** A character with the marks (and Hangul vowel and final jamo) after it: the unit composition works on. */
function nextCluster(text: string, i: number): number {
  let j = nextCodePoint(text, i);
  while (j < text.length && COMBINING.test(String.fromCodePoint(text.codePointAt(j)!))) j = nextCodePoint(text, j);
  return j;
}

/**
 * BERT's steps (clean_text, CJK padding, strip_accents, lowercase) act character by character, so they run
 * in one pass: each character's output is what the four passes would make of it.
 */
function bert(n: NormalizedText, config: Extract<NormalizerConfig, { type: 'BertNormalizer' }>): NormalizedText {
  // Hugging Face: strip_accents null means "follow lowercase".
  const strip = config.strip_accents ?? config.lowercase;
  return rewrite(n, (ch, cp) => {
    if (config.clean_text && isDroppedControl(ch, cp)) return '';
    if (config.clean_text && isWhitespace(ch)) return ' ';
    let out = strip ? withoutAccents(decompose(ch, 'NFD')) : ch;
    if (config.lowercase) out = out.length === ch.length && out === ch ? lowercaseChar(ch) : Array.from(out, lowercaseChar).join('');
    return config.handle_chinese_chars && isCjk(cp) ? ` ${out} ` : out;
  });
}

function strip(n: NormalizedText, left: boolean, right: boolean): NormalizedText {
  let from = 0;
  let to = n.text.length;
  while (left && from < to && isWhitespace(n.text[from]!)) from++;
  while (right && to > from && isWhitespace(n.text[to - 1]!)) to--;
  return sliceNormalized(n, from, to);
}

/** Applies a normaliser, keeping the alignment of every unit to the original text. */
export function normalize(config: NormalizerConfig | null, n: NormalizedText): NormalizedText {
  if (config === null) return n;
  switch (config.type) {
    case 'BertNormalizer':
      return bert(n, config);
    case 'Lowercase':
      // Rust's `char::to_lowercase`, character by character (no final-sigma rule).
      return rewrite(n, lowercaseChar);
    case 'StripAccents':
      return rewrite(n, (ch) => withoutAccents(ch));
    case 'NFD':
    case 'NFKD':
      return rewrite(n, (ch) => decompose(ch, config.type as 'NFD' | 'NFKD'));
    case 'NFC':
    case 'NFKC':
      return rewrite(n, (cluster) => cluster.normalize(config.type as 'NFC' | 'NFKC'), nextCluster);
    case 'Strip':
      return strip(n, config.left, config.right);
    case 'Sequence':
      return config.normalizers.reduce((acc, c) => normalize(c, acc), n);
  }
}
