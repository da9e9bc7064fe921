import type { PreToken } from './bertText.js';

/**
 * Splits BERT pre-tokens further wherever a morpheme starts (morpheme starts as offsets into the original
 * text), so no subword token spans two morphemes: 홍길동이 → 홍길동 | 이, and an entity's label never covers
 * the particle after it. This is the Mecab-ko + subword tokenisation of Thunder-DeID.
 */
export function splitAtMorphemes(preTokens: readonly PreToken[], morphemeStarts: ReadonlySet<number>): PreToken[] {
  const out: PreToken[] = [];
  for (const p of preTokens) {
    let from = 0;
    for (let k = 1; k < p.text.length; k++) {
      const original = p.map[k]!;
      if (original !== p.map[k - 1] && morphemeStarts.has(original)) {
        out.push({ text: p.text.slice(from, k), start: p.map[from]!, end: original, map: p.map.slice(from, k) });
        from = k;
      }
    }
    out.push(from === 0 ? p : { text: p.text.slice(from), start: p.map[from]!, end: p.end, map: p.map.slice(from) });
  }
  return out;
}
