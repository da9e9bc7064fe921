import type { Encoding } from '../tokenizer/index.js';

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
