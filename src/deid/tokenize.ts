import type { MorphAnalyzer } from '../text/index.js';
import { bertPreTokenize, splitAtMorphemes, WordPieceTokenizer, type Encoding, type Tokenizer } from '../tokenizer/index.js';

/**
 * Tokenises for de-identification: with an analyser, WordPiece runs on morphemes (no token crosses a
 * morpheme boundary); without one, on BERT's pre-tokens.
 */
export async function tokenizeForDeid(tokenizer: Tokenizer, text: string, analyzer?: MorphAnalyzer): Promise<Encoding> {
  if (analyzer === undefined || !(tokenizer instanceof WordPieceTokenizer) || !/[\uac00-\ud7a3]/.test(text)) return tokenizer.tokenize(text);
  const starts = new Set((await analyzer.analyze(text)).map((m) => m.start));
  return tokenizer.tokenizePreTokens(splitAtMorphemes(bertPreTokenize(text, tokenizer.options), starts));
}

/** IO labels per token: the label of the span the token overlaps most, else "O". */
export function alignLabels(enc: Encoding, spans: readonly { start: number; end: number; label: string }[]): string[] {
  return enc.offsets.map(([s, e], i) => {
    if (enc.special[i] || e <= s) return 'O';
    let best = 'O';
    let bestOverlap = 0;
    for (const span of spans) {
      const overlap = Math.min(e, span.end) - Math.max(s, span.start);
      if (overlap > bestOverlap) [best, bestOverlap] = [span.label, overlap];
    }
    return best;
  });
}
