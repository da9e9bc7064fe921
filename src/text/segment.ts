/** A word of a text: its characters are text.slice(start, end). */
export interface WordSpan {
  start: number;
  end: number;
  /** The surface form, as in the text. */
  surface: string;
  kind: 'word' | 'number';
}

/**
 * Letters, marks and digits, with apostrophes and hyphens kept inside a word (`O'Brien`, `COVID-19`,
 * `010-1234-5678`); every other character separates words. A word made only of decimal digits is a
 * `number`, which term extraction can ignore.
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu;
const DIGITS = /^\p{Nd}+$/u;
/** Scripts written without spaces between words; they go through the ICU word segmenter. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

let icu: Intl.Segmenter | undefined;

/** Splits a text into words with character offsets, for any script. */
export function segmentWords(text: string): WordSpan[] {
  const out: WordSpan[] = [];
  for (const m of text.matchAll(WORD)) {
    const surface = m[0];
    const start = m.index;
    if (UNSPACED.test(surface)) {
      icu ??= new Intl.Segmenter(undefined, { granularity: 'word' });
      for (const seg of icu.segment(surface)) {
        if (seg.isWordLike !== true) continue;
        out.push({ start: start + seg.index, end: start + seg.index + seg.segment.length, surface: seg.segment, kind: DIGITS.test(seg.segment) ? 'number' : 'word' });
      }
      continue;
    }
    out.push({ start, end: start + surface.length, surface, kind: DIGITS.test(surface) ? 'number' : 'word' });
  }
  return out;
}

const HANGUL = /[\uac00-\ud7a3]/;

/** Whether a word contains Hangul syllables (then Korean morphology applies to it). */
export function isHangulWord(word: string): boolean {
  return HANGUL.test(word);
}
