/** A word of a text: its characters are text.slice(start, end). */
export interface WordSpan {
  start: number;
  end: number;
  /** The surface form, as in the text. */
  surface: string;
  kind: 'word' | 'number';
}

/**
 * A word is a run of letters, marks and digits (`[\p{L}\p{M}\p{N}]+`), with apostrophes and hyphens kept
 * inside it (`O'Brien`, `COVID-19`, `010-1234-5678`); every other character separates words. Beside a
 * Hangul syllable on either side they separate too: Korean has no apostrophe inside a word, so there it is
 * a quotation mark (‘안철수’가, 관심을'하정우), and a hyphen joins two words (김새롬-이찬오, 한-미). A word made
 * only of decimal digits (`\p{Nd}`), or of digit groups joined by hyphens (a range 20-30, a phone number),
 * is a `number`, which term extraction can ignore. Words in scripts
 * written without spaces go through the ICU word segmenter.
 *
 * The scanner classifies each UTF-16 unit once (a table filled on first sight from the Unicode property
 * regexes) instead of running a regex per word: segmentation is on the hot path of blacklist building.
 */
const WORD_CHAR = 1;
const DIGIT = 2;
const UNSPACED = 4;
const UNKNOWN = 0xff;
const IS_WORD = /^[\p{L}\p{M}\p{N}]$/u;
const IS_DIGIT = /^\p{Nd}$/u;
const IS_UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]$/u;

const bmpClasses = new Uint8Array(0x10000).fill(UNKNOWN);
const astralClasses = new Map<number, number>();

function classify(char: string): number {
  if (!IS_WORD.test(char)) return 0;
  return WORD_CHAR | (IS_DIGIT.test(char) ? DIGIT : 0) | (IS_UNSPACED.test(char) ? UNSPACED : 0);
}

/** The class of the code point at `i` and its length in UTF-16 units, packed as class * 4 + length. */
function classAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      const point = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      let cls = astralClasses.get(point);
      if (cls === undefined) astralClasses.set(point, (cls = classify(String.fromCodePoint(point))));
      return cls * 4 + 2;
    }
  }
  let cls = bmpClasses[code]!;
  if (cls === UNKNOWN) bmpClasses[code] = cls = classify(String.fromCharCode(code));
  return cls * 4 + 1;
}

const isJoiner = (code: number) => code === 0x27 || code === 0x2019 || code === 0x2d;
/** The Hangul syllables block, U+AC00–U+D7A3: what makes a word Korean here. */
const [HANGUL_FIRST, HANGUL_LAST] = [0xac00, 0xd7a3];
const isHangulSyllable = (code: number) => code >= HANGUL_FIRST && code <= HANGUL_LAST;

let icu: Intl.Segmenter | undefined;

/** Splits a text into words with character offsets, for any script. */
export function segmentWords(text: string): WordSpan[] {
  const out: WordSpan[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let at = classAt(text, i);
    if (((at >> 2) & WORD_CHAR) === 0) {
      i += at & 3;
      continue;
    }
    const start = i;
    let digits = true;
    let unspaced = false;
    for (;;) {
      while (i < n && ((at = classAt(text, i)) >> 2) & WORD_CHAR) {
        digits &&= ((at >> 2) & DIGIT) !== 0;
        unspaced ||= ((at >> 2) & UNSPACED) !== 0;
        i += at & 3;
      }
      if (i + 1 < n && isJoiner(text.charCodeAt(i)) && (classAt(text, i + 1) >> 2) & WORD_CHAR && !isHangulSyllable(text.charCodeAt(i - 1)) && !isHangulSyllable(text.charCodeAt(i + 1))) {
        // Digit groups joined stay a number (a range 20-30, 010-1234-5678); a letter anywhere makes a word.
        digits &&= text.charCodeAt(i) === 0x2d;
        i++;
        continue;
      }
      break;
    }
    const surface = text.slice(start, i);
    if (unspaced) pushUnspaced(out, surface, start);
    else out.push({ start, end: i, surface, kind: digits ? 'number' : 'word' });
  }
  return out;
}

const DIGITS = /^\p{Nd}+$/u;

function pushUnspaced(out: WordSpan[], surface: string, start: number): void {
  icu ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const seg of icu.segment(surface)) {
    if (seg.isWordLike !== true) continue;
    out.push({ start: start + seg.index, end: start + seg.index + seg.segment.length, surface: seg.segment, kind: DIGITS.test(seg.segment) ? 'number' : 'word' });
  }
}

const HANGUL = new RegExp(`[\\u${HANGUL_FIRST.toString(16)}-\\u${HANGUL_LAST.toString(16)}]`);

/** Whether a word contains Hangul syllables (then Korean morphology applies to it). */
export function isHangulWord(word: string): boolean {
  return HANGUL.test(word);
}
