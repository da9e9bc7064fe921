import { sliceNormalized } from './normalizer.js';
import type { PreToken } from './preTokenizer.js';

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
      const original = p.starts[k]!;
      if (original !== p.starts[k - 1] && morphemeStarts.has(original)) {
        out.push(sliceNormalized(p, from, k));
        from = k;
      }
    }
    out.push(from === 0 ? p : sliceNormalized(p, from, p.text.length));
  }
  return out;
}
