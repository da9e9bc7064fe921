import { rangeClass, WHITESPACE_CLASS } from './bertText.js';
import { LETTER_ONLY_IN_HF, LETTER_UNKNOWN_TO_HF, NUMBER_ONLY_IN_HF, NUMBER_UNKNOWN_TO_HF } from './hfUnicode.js';
import type { NormalizedText } from './normalizer.js';

/**
 * GPT-2's byte-level alphabet: every byte maps to one printable character, so any text becomes a string
 * over 256 symbols and BPE never meets an unknown character.
 */
function buildByteToChar(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const table: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) table[b] = String.fromCharCode(printable.includes(b) ? b : 256 + extra++);
  return table;
}

export const BYTE_TO_CHAR: readonly string[] = buildByteToChar();
export const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

/**
 * GPT-2's pre-tokenisation pattern: contractions, letter runs, digit runs, other runs, each with a leading
 * space. Whitespace is Unicode White_Space as in Hugging Face's regex engine (JavaScript's `\s` would also
 * take U+FEFF and miss U+0085).
 */
const S = `[${WHITESPACE_CLASS}]`;
const NOT_S = `[^${WHITESPACE_CLASS}]`;
const WHITESPACE = new RegExp(`^${S}$`, 'v');
// Letters and digits as Hugging Face's (older) tables have them.
const L = `[[\\p{L}--[${rangeClass(LETTER_UNKNOWN_TO_HF)}]]${rangeClass(LETTER_ONLY_IN_HF)}]`;
const N = `[[\\p{N}--[${rangeClass(NUMBER_UNKNOWN_TO_HF)}]]${rangeClass(NUMBER_ONLY_IN_HF)}]`;
export const BYTE_LEVEL_SPLIT = new RegExp(`'s|'t|'re|'ve|'m|'ll|'d| ?${L}+| ?${N}+| ?[^${WHITESPACE_CLASS}${L}${N}]+|${S}+(?!${NOT_S})|${S}+`, 'gv');

export interface ByteLevelPiece {
  /** The piece in the byte-level alphabet. */
  text: string;
  /** For each byte-level character, the [start, end) in the original text of the character it came from. */
  charStart: number[];
  charEnd: number[];
}

/** The byte-level characters of one code point: its UTF-8 bytes (a lone surrogate as U+FFFD, as TextEncoder writes it). */
function byteChars(cp: number): string {
  if (cp < 0x80) return BYTE_TO_CHAR[cp]!;
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  const b = BYTE_TO_CHAR;
  if (cp < 0x800) return b[0xc0 | (cp >> 6)]! + b[0x80 | (cp & 63)]!;
  if (cp < 0x10000) return b[0xe0 | (cp >> 12)]! + b[0x80 | ((cp >> 6) & 63)]! + b[0x80 | (cp & 63)]!;
  return b[0xf0 | (cp >> 18)]! + b[0x80 | ((cp >> 12) & 63)]! + b[0x80 | ((cp >> 6) & 63)]! + b[0x80 | (cp & 63)]!;
}

/** A text in the byte-level alphabet. */
export function toByteLevel(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    out += byteChars(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}

/** The byte-level pieces of a text without offsets: what the BPE trainer counts. */
export function byteLevelWords(text: string, addPrefixSpace: boolean): string[] {
  const source = addPrefixSpace && text !== '' && !text.startsWith(' ') ? ` ${text}` : text;
  return Array.from(source.matchAll(BYTE_LEVEL_SPLIT), (m) => toByteLevel(m[0]));
}

/**
 * Splits a (normalised) text GPT-2 style and maps each piece to byte-level characters with offsets into
 * the original text. The prefix space, when added, is aligned with the first character, as in Hugging Face.
 * `cuts` (offsets into the original text: where a Korean morpheme starts) split pieces again, a piece's
 * leading space staying with the word it precedes.
 */
export function byteLevelPieces(n: NormalizedText, addPrefixSpace: boolean, cuts?: ReadonlySet<number>): ByteLevelPiece[] {
  const prefixed = addPrefixSpace && n.text !== '' && !n.text.startsWith(' ');
  const source = prefixed ? ` ${n.text}` : n.text;
  const starts = prefixed ? [n.starts[0]!, ...n.starts] : n.starts;
  const ends = prefixed ? [n.ends[0]!, ...n.ends] : n.ends;
  const out: ByteLevelPiece[] = [];
  for (const m of source.matchAll(BYTE_LEVEL_SPLIT)) {
    let piece: ByteLevelPiece = { text: '', charStart: [], charEnd: [] };
    let word = false;
    for (let i = m.index; i < m.index + m[0].length; ) {
      const cp = source.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      if (cuts !== undefined) {
        if (word && cuts.has(starts[i]!) && starts[i] !== starts[i - 1]) {
          out.push(piece);
          piece = { text: '', charStart: [], charEnd: [] };
        }
        word ||= !WHITESPACE.test(source.slice(i, i + width));
      }
      const bytes = byteChars(cp);
      piece.text += bytes;
      for (let k = 0; k < bytes.length; k++) {
        piece.charStart.push(starts[i]!);
        piece.charEnd.push(ends[i + width - 1]!);
      }
      i += width;
    }
    out.push(piece);
  }
  return out;
}

const decoder = new TextDecoder('utf-8');

/** The text of byte-level characters (invalid UTF-8 sequences become U+FFFD, as Hugging Face decodes them). */
export function fromByteLevel(chars: string): string {
  const bytes = Uint8Array.from([...chars].map((c) => CHAR_TO_BYTE.get(c) ?? 63));
  return decoder.decode(bytes);
}
