import { CASE_UNKNOWN_TO_HF, DECOMPOSITION_UNKNOWN_TO_HF, FORMAT_UNKNOWN_TO_HF, MARK_ONLY_IN_HF, MARK_UNKNOWN_TO_HF, PUNCT_ONLY_IN_HF, PUNCT_UNKNOWN_TO_HF, type Ranges } from './hfUnicode.js';

/**
 * The character classes of Hugging Face's normalisers and pre-tokenizers. Their Unicode tables are older
 * than the JavaScript runtime's, so the code points assigned or re-categorised since are taken as they are
 * classed there (hfUnicode.ts); `test/tokenizer/parity.test.ts` compares every code point with the
 * `tokenizers` library and fails when a new Unicode version moves one.
 */

/** Unicode White_Space, as Rust's `char::is_whitespace` (JavaScript's `\s` differs: it has U+FEFF, lacks U+0085). */
export const WHITESPACE_CLASS = '\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Rust regex's Unicode `\\w` (JavaScript's `\\w` is ASCII only). */
export const WORD_CLASS = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const WHITESPACE = new RegExp(`[${WHITESPACE_CLASS}]`, 'u');
const OTHER = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u;
const PUNCT = /\p{P}/u;

export function inRanges(ranges: Ranges, cp: number): boolean {
  return ranges.some(([from, to]) => cp >= from && cp <= to);
}

/** The ranges as the inside of a regular-expression character class (`u` or `v` flag). */
export function rangeClass(ranges: Ranges): string {
  return ranges.map(([from, to]) => `\\u{${from.toString(16)}}-\\u{${to.toString(16)}}`).join('');
}

const NONSPACING_MARK = new RegExp(`[[\\p{Mn}--[${rangeClass(MARK_UNKNOWN_TO_HF)}]]${rangeClass(MARK_ONLY_IN_HF)}]`, 'gv');

/** Removes the non-spacing marks (accents) of a decomposed text, as BERT's strip_accents does. */
export function withoutAccents(decomposed: string): string {
  return decomposed.replace(NONSPACING_MARK, '');
}

export function isWhitespace(ch: string): boolean {
  const c = ch.charCodeAt(0);
  // ASCII, most of any text, without the regular expression.
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return WHITESPACE.test(ch);
}

/** What BERT's `clean_text` drops: NUL, U+FFFD, and control, format, private-use and surrogate characters other than \t \n \r. */
export function isDroppedControl(ch: string, cp: number): boolean {
  if (cp === 0 || cp === 0xfffd) return true;
  if (cp === 9 || cp === 10 || cp === 13) return false;
  if (cp < 128) return cp < 32 || cp === 127;
  return OTHER.test(ch) && !inRanges(FORMAT_UNKNOWN_TO_HF, cp);
}

/** BERT's punctuation: all ASCII punctuation (`$`, `+`, `^` too) and Unicode P*, but not other symbols (㈜, ○, ×, emoji). */
export function isBertPunctuation(ch: string, cp: number): boolean {
  if (cp < 128) return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126);
  if (inRanges(PUNCT_ONLY_IN_HF, cp)) return true;
  return PUNCT.test(ch) && !inRanges(PUNCT_UNKNOWN_TO_HF, cp);
}

/** The CJK ideograph blocks BERT isolates as words of their own. */
export function isCjk(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x2a6df) || (cp >= 0x2a700 && cp <= 0x2b73f) || (cp >= 0x2b740 && cp <= 0x2b81f) || (cp >= 0x2b920 && cp <= 0x2ceaf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x2f800 && cp <= 0x2fa1f);
}

/** One character decomposed (NFD or NFKD), except where Hugging Face's tables have no decomposition yet. */
export function decompose(ch: string, form: 'NFD' | 'NFKD'): string {
  const out = ch.normalize(form);
  return out !== ch && inRanges(DECOMPOSITION_UNKNOWN_TO_HF, ch.codePointAt(0)!) ? ch : out;
}

/** One character lower-cased as Rust's `char::to_lowercase` (no final-sigma rule), with Hugging Face's case tables. */
export function lowercaseChar(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c < 128) return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : ch;
  const out = ch.toLowerCase();
  return out !== ch && inRanges(CASE_UNKNOWN_TO_HF, ch.codePointAt(0)!) ? ch : out;
}
