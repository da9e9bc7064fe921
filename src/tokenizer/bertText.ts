/**
 * BERT's normaliser and pre-tokeniser with character offsets into the original text: control characters
 * dropped, whitespace unified, CJK ideographs isolated, optional lower-casing and accent stripping, then
 * words split on whitespace with each punctuation character its own word.
 */
export interface BertTextOptions {
  lowercase: boolean;
  /** Strip combining marks after NFD (BERT uncased does this by default; it also decomposes Hangul, so ppmlm's own tokenizers turn it off). */
  stripAccents: boolean;
  handleChineseChars: boolean;
}

export interface PreToken {
  text: string;
  start: number;
  end: number;
  /** For each UTF-16 unit of `text`, the offset in the original text of the character it came from. */
  map: number[];
}

const CONTROL = /[\p{Cc}\p{Cf}]/u;
const WHITESPACE = /\s/u;
const PUNCT = /[\p{P}\p{S}]/u;

function isCjk(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x2a6df) || (cp >= 0x2a700 && cp <= 0x2b73f) || (cp >= 0x2b740 && cp <= 0x2b81f) || (cp >= 0x2b820 && cp <= 0x2ceaf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x2f800 && cp <= 0x2fa1f);
}

/** ASCII symbols count as punctuation for BERT even where Unicode calls them symbols ($, +, ^, `). */
function isPunctuation(ch: string, cp: number): boolean {
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126) || PUNCT.test(ch);
}

export function bertPreTokenize(text: string, options: BertTextOptions): PreToken[] {
  const out: PreToken[] = [];
  let word = '';
  let map: number[] = [];
  let wordStart = -1;
  let wordEnd = -1;
  const flush = () => {
    if (word !== '') out.push({ text: word, start: wordStart, end: wordEnd, map });
    word = '';
    map = [];
    wordStart = -1;
  };
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const start = i;
    i += ch.length;
    if (cp === 0 || cp === 0xfffd || (CONTROL.test(ch) && !WHITESPACE.test(ch))) continue;
    if (WHITESPACE.test(ch)) {
      flush();
      continue;
    }
    let norm = options.lowercase ? ch.toLowerCase() : ch;
    if (options.stripAccents) norm = norm.normalize('NFD').replace(/\p{Mn}/gu, '');
    if (norm === '') continue;
    if (isPunctuation(ch, cp) || (options.handleChineseChars && isCjk(cp))) {
      flush();
      out.push({ text: norm, start, end: i, map: Array.from({ length: norm.length }, () => start) });
      continue;
    }
    if (wordStart === -1) wordStart = start;
    word += norm;
    for (let k = 0; k < norm.length; k++) map.push(start);
    wordEnd = i;
  }
  flush();
  return out;
}
