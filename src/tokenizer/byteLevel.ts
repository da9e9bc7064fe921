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

/** GPT-2's pre-tokenisation pattern: contractions, letter runs, digit runs, other runs, each with a leading space. */
export const BYTE_LEVEL_SPLIT = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export interface ByteLevelPiece {
  /** The piece in the byte-level alphabet. */
  text: string;
  /** For each byte-level character, the offset of the original character it came from, and the end. */
  charStart: number[];
  charEnd: number[];
}

const encoder = new TextEncoder();

/** Splits a text GPT-2 style and maps each piece to byte-level characters with character offsets. */
export function byteLevelPieces(text: string, addPrefixSpace: boolean): ByteLevelPiece[] {
  const source = addPrefixSpace && !text.startsWith(' ') ? ` ${text}` : text;
  const shift = source.length - text.length;
  const out: ByteLevelPiece[] = [];
  for (const m of source.matchAll(BYTE_LEVEL_SPLIT)) {
    let chars = '';
    const charStart: number[] = [];
    const charEnd: number[] = [];
    let i = m.index;
    for (const ch of m[0]) {
      const start = Math.max(0, i - shift);
      const end = Math.max(0, i + ch.length - shift);
      for (const byte of encoder.encode(ch)) {
        chars += BYTE_TO_CHAR[byte];
        charStart.push(start);
        charEnd.push(end);
      }
      i += ch.length;
    }
    out.push({ text: chars, charStart, charEnd });
  }
  return out;
}

const decoder = new TextDecoder('utf-8');

/** The text of byte-level characters (invalid UTF-8 sequences become U+FFFD, as Hugging Face decodes them). */
export function fromByteLevel(chars: string): string {
  const bytes = Uint8Array.from([...chars].map((c) => CHAR_TO_BYTE.get(c) ?? 63));
  return decoder.decode(bytes);
}
