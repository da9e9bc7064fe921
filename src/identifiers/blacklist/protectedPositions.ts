import { mergeSpans } from './matcher.js';

/** A token's character span in its text, as tokenizers report offsets. */
export type TokenOffsets = readonly (readonly [number, number])[];

/**
 * The one definition of a protected position, shared by fine-tuning, the audit and the experiment runner:
 * a non-special token whose character span [s, e) overlaps the character span of a blacklist occurrence.
 * Kept here, below both `mlm` and `audit`, so neither can drift from the other.
 */
export function overlaps(token: readonly [number, number], span: { start: number; end: number }): boolean {
  return token[0] < span.end && token[1] > span.start;
}

/** The tokens that cover one occurrence (the positions masked together when the occurrence is masked whole). */
export function occurrenceTokens(offsets: TokenOffsets, span: { start: number; end: number }, special?: ArrayLike<number | boolean>): number[] {
  const out: number[] = [];
  for (let i = 0; i < offsets.length; i++) if (!special?.[i] && overlaps(offsets[i]!, span)) out.push(i);
  return out;
}

/** True when the token overlaps any of the sorted, disjoint spans (binary search). */
function overlapsAny(spans: readonly [number, number][], token: readonly [number, number]): boolean {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = spans[mid]!;
    if (b <= token[0]) lo = mid + 1;
    else if (a >= token[1]) hi = mid - 1;
    else return overlaps(token, { start: a, end: b });
  }
  return false;
}

/** 1 at every protected position of a token sequence (see {@link overlaps}), 0 elsewhere and at special tokens. */
export function protectedMask(offsets: TokenOffsets, matches: readonly { start: number; end: number }[], special?: ArrayLike<number | boolean>): Uint8Array {
  const spans = mergeSpans(matches);
  const out = new Uint8Array(offsets.length);
  if (spans.length === 0) return out;
  for (let i = 0; i < offsets.length; i++) if (!special?.[i] && overlapsAny(spans, offsets[i]!)) out[i] = 1;
  return out;
}

