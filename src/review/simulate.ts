import { goldType, type SpanDocument } from '../corpus/index.js';
import { emptyMarks, REVIEW_TYPES, type ReviewMarks, type ReviewType } from './marks.js';
import type { ReviewSample } from './sample.js';

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The review type (the page's keys 1-6) a gold label stands for, through the reporting types of {@link goldType}. */
export function reviewTypeOf(label: string): ReviewType {
  const type = goldType(label);
  return type === 'PHONE' ? 'CONTACT' : (REVIEW_TYPES as readonly string[]).includes(type) ? (type as ReviewType) : 'OTHER';
}

/**
 * The marks a reviewer who knows the gold spans and misses nothing would make: a gold span not wholly
 * protected (a word character left out) is a missed identifier; a protected span overlapping a gold span
 * is an identifier, any other is not. Every item is reviewed. The oracle for the estimator's coverage.
 */
export function goldReviewer(sample: ReviewSample, gold: ReadonlyMap<string, SpanDocument>): ReviewMarks {
  const marks = emptyMarks(sample);
  sample.items.forEach((item, i) => {
    const doc = gold.get(item.doc);
    if (doc === undefined) throw new RangeError(`no gold document ${item.doc}`);
    const covered = new Uint8Array(item.text.length);
    for (const s of item.spans) covered.fill(1, s.start, s.end);
    const m = marks.items[i]!;
    m.reviewed = true;
    const inside = doc.spans
      .filter((g) => g.start < item.end && g.end > item.start)
      .map((g) => ({ start: Math.max(g.start, item.start) - item.start, end: Math.min(g.end, item.end) - item.start, label: g.label }));
    for (const g of inside) {
      let whole = true;
      for (let c = g.start; c < g.end; c++) if (!covered[c] && WORD_CHAR.test(item.text[c]!)) whole = false;
      if (!whole) m.missed.push({ start: g.start, end: g.end, type: reviewTypeOf(g.label) });
    }
    m.spans = item.spans.map((s) => (inside.some((g) => g.start < s.end && g.end > s.start) ? 'identifier' : 'not'));
  });
  return marks;
}
