import { readFile } from 'node:fs/promises';
import { FormatError, UsageError } from '../errors.js';
import { decodeUtf8Strict, fileSystemError, isJsonObject, parseJson } from '../io/index.js';
import type { ReviewSample } from './sample.js';

/** What a reviewer may call a missed identifier (keys 1-6 on the page). */
export const REVIEW_TYPES = ['PERSON', 'LOCATION', 'DATE', 'ID', 'CONTACT', 'OTHER'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];

/**
 * A protected span as judged: an identifier, or not one (a false alarm). Unjudged spans take the page's
 * default: direct detections are identifiers, indirect terms are not (a reviewer confirms those that are).
 */
export type SpanJudgement = 'identifier' | 'not';

export interface ItemMarks {
  /** Index of the item in the sample. */
  item: number;
  reviewed: boolean;
  /** Identifiers the blacklist left unprotected (wholly or in part), offsets in the item's text. */
  missed: { start: number; end: number; type: ReviewType }[];
  /** One judgement per protected span of the item, in the sample's order. */
  spans: SpanJudgement[];
}

/**
 * The reviewer's marks, as the page exports them: offsets and types only, never text, tied to the sample
 * by its keyed fingerprints.
 */
export interface ReviewMarks {
  format: 'ppmlm-review-marks';
  version: 1;
  sample: string;
  corpus: string;
  blacklist: string;
  seed: number;
  size: number;
  passageWords: number;
  items: ItemMarks[];
}

/** The judgement a span has before the reviewer touches it. */
export const defaultJudgement = (kind: 'direct' | 'indirect'): SpanJudgement => (kind === 'direct' ? 'identifier' : 'not');

/** Marks with nothing marked yet: the page's starting state, and what a simulated reviewer fills. */
export function emptyMarks(sample: ReviewSample): ReviewMarks {
  return {
    format: 'ppmlm-review-marks',
    version: 1,
    sample: sample.fingerprint,
    corpus: sample.corpus,
    blacklist: sample.blacklist,
    seed: sample.seed,
    size: sample.items.length,
    passageWords: sample.passageWords,
    items: sample.items.map((it, item) => ({ item, reviewed: false, missed: [], spans: it.spans.map((s) => defaultJudgement(s.kind)) })),
  };
}

const FIX = 'export the marks again from the review page (key e)';

/** Reads marks JSON; a malformed file is a FormatError naming the position, a wrong shape names the field. */
export function parseReviewMarks(text: string, file: string): ReviewMarks {
  const raw = parseJson(text, file, FIX);
  const bad = (what: string): never => {
    throw new FormatError(`${what}; ${FIX}`, { file });
  };
  if (!isJsonObject(raw) || raw.format !== 'ppmlm-review-marks') bad('not review marks (no "format": "ppmlm-review-marks")');
  const r = raw as Record<string, unknown>;
  if (r.version !== 1) bad(`marks format version ${String(r.version)}, this ppmlm reads version 1`);
  for (const key of ['sample', 'corpus', 'blacklist'] as const) if (typeof r[key] !== 'string') bad(`"${key}" must be a fingerprint string`);
  for (const key of ['seed', 'size', 'passageWords'] as const) if (!Number.isInteger(r[key])) bad(`"${key}" must be an integer`);
  if (!Array.isArray(r.items)) bad('"items" must be an array');
  const items = (r.items as unknown[]).map((it, i): ItemMarks => {
    if (!isJsonObject(it)) return bad(`items[${i}] must be an object`);
    if (it.item !== i) bad(`items[${i}].item must be ${i}`);
    if (typeof it.reviewed !== 'boolean') bad(`items[${i}].reviewed must be true or false`);
    if (!Array.isArray(it.missed)) bad(`items[${i}].missed must be an array`);
    if (!Array.isArray(it.spans) || !it.spans.every((s) => s === 'identifier' || s === 'not')) bad(`items[${i}].spans must hold "identifier" or "not" per span`);
    const missed = (it.missed as unknown[]).map((m, j) => {
      if (!isJsonObject(m) || !Number.isInteger(m.start) || !Number.isInteger(m.end) || (m.start as number) >= (m.end as number) || (m.start as number) < 0) return bad(`items[${i}].missed[${j}] must be {"start", "end", "type"} with 0 <= start < end`);
      if (!REVIEW_TYPES.includes(m.type as ReviewType)) bad(`items[${i}].missed[${j}].type must be one of ${REVIEW_TYPES.join(', ')}`);
      return { start: m.start as number, end: m.end as number, type: m.type as ReviewType };
    });
    return { item: i, reviewed: it.reviewed as boolean, missed: oneMarkPerOccurrence(missed), spans: it.spans as SpanJudgement[] };
  });
  return { format: 'ppmlm-review-marks', version: 1, sample: r.sample as string, corpus: r.corpus as string, blacklist: r.blacklist as string, seed: r.seed as number, size: r.size as number, passageWords: r.passageWords as number, items };
}

/**
 * Missed marks that overlap (a mark made twice, or widened by a second press) are one occurrence: counted
 * apart, one miss raised the miss rate twice. The merged mark keeps the first one's type.
 */
function oneMarkPerOccurrence(missed: ItemMarks['missed']): ItemMarks['missed'] {
  const merged: ItemMarks['missed'] = [];
  for (const m of [...missed].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = merged.at(-1);
    if (last !== undefined && m.start < last.end) last.end = Math.max(last.end, m.end);
    else merged.push({ ...m });
  }
  return merged;
}

export async function readReviewMarks(path: string): Promise<ReviewMarks> {
  const bytes = await readFile(path).catch((err: unknown) => {
    throw fileSystemError(err, path, 'check --import');
  });
  // Saved by a browser or an editor, the marks may open with a BOM; they are UTF-8 like every other input.
  return parseReviewMarks(decodeUtf8Strict(bytes, path), path);
}

/**
 * Refuses marks that were not made on `sample`, naming what differs (the corpus, the blacklist or the
 * draw), and marks whose items do not fit the sample's (offsets beyond an item, another count of spans).
 */
export function assertMarksFit(marks: ReviewMarks, sample: ReviewSample, file: string): void {
  if (marks.blacklist !== sample.blacklist) throw new UsageError(`${file}: marks made against another blacklist (fingerprint ${marks.blacklist}, this one is ${sample.blacklist}); give the --blacklist the page was made from`);
  if (marks.corpus !== sample.corpus) throw new UsageError(`${file}: marks made on another corpus (fingerprint ${marks.corpus}, this one is ${sample.corpus}); give the --corpus (and its column flags) the page was made from`);
  if (marks.sample !== sample.fingerprint) throw new UsageError(`${file}: marks of another draw (sample ${marks.sample}, seed ${marks.seed}, ${marks.size} passages; redrawn here: ${sample.fingerprint}); the corpus, the blacklist and the draw's settings read from the marks match, so the passages were cut another way here (another ppmlm version, or another Node, whose ICU cuts unspaced scripts into words); import where the page was drawn, or draw a new page with --sample N --out page.html`);
  if (marks.items.length !== sample.items.length) throw new FormatError(`${marks.items.length} items, the sample has ${sample.items.length}; ${FIX}`, { file });
  marks.items.forEach((m, i) => {
    const item = sample.items[i]!;
    if (m.spans.length !== item.spans.length) throw new FormatError(`items[${i}] judges ${m.spans.length} spans, the item has ${item.spans.length}; ${FIX}`, { file });
    for (const x of m.missed) if (x.end > item.text.length) throw new FormatError(`items[${i}].missed ends at ${x.end}, beyond the item's ${item.text.length} characters; ${FIX}`, { file });
  });
}
