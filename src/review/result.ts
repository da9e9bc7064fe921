import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SpanDocument } from '../corpus/index.js';
import { canonicalTerm, type Blacklist, type BlacklistEntry } from '../identifiers/index.js';
import { isJsonObject, PRIVATE_FILE_MODE, writeFileAtomic } from '../io/index.js';
import type { ReviewEstimate } from './estimate.js';
import type { ReviewMarks } from './marks.js';
import type { ReviewSample } from './sample.js';

/**
 * What a review established about a blacklist, kept beside it (`<blacklist>.review-<sample>.json`, mode
 * 0600; the blacklist itself is never rewritten): figures and fingerprints only, no text.
 */
export interface ReviewResult {
  format: 'ppmlm-review-result';
  version: 1;
  blacklist: string;
  corpus: string;
  sample: string;
  seed: number;
  passageWords: number;
  createdAt: string;
  estimate: ReviewEstimate;
}

export function reviewResult(sample: ReviewSample, estimate: ReviewEstimate): ReviewResult {
  return { format: 'ppmlm-review-result', version: 1, blacklist: sample.blacklist, corpus: sample.corpus, sample: sample.fingerprint, seed: sample.seed, passageWords: sample.passageWords, createdAt: new Date().toISOString(), estimate };
}

/** Where a review of `blacklistPath` is recorded. */
export const reviewResultPath = (blacklistPath: string, sample: string) => `${blacklistPath}.review-${sample}.json`;

export async function writeReviewResult(blacklistPath: string, result: ReviewResult, options: { force?: boolean } = {}): Promise<string> {
  const path = reviewResultPath(blacklistPath, result.sample);
  await writeFileAtomic(path, `${JSON.stringify(result, null, 2)}\n`, { force: options.force, mode: PRIVATE_FILE_MODE });
  return path;
}

/**
 * The latest review recorded beside `blacklistPath` for the blacklist with fingerprint `blacklist`, if any
 * (a review of an earlier blacklist at that path does not count). Unreadable records are skipped.
 */
export async function latestReview(blacklistPath: string, blacklist: string): Promise<ReviewResult | undefined> {
  const dir = dirname(blacklistPath);
  const prefix = `${basename(blacklistPath)}.review-`;
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(prefix) && n.endsWith('.json'));
  let latest: ReviewResult | undefined;
  for (const name of names) {
    const value = await readFile(join(dir, name), 'utf8').then((t) => JSON.parse(t) as unknown).catch(() => undefined);
    if (!isJsonObject(value) || value.format !== 'ppmlm-review-result' || value.blacklist !== blacklist) continue;
    const r = value as unknown as ReviewResult;
    if (latest === undefined || r.createdAt > latest.createdAt) latest = r;
  }
  return latest;
}

/** The one line a model card or a summary gives a review. */
export function reviewSummary(r: Pick<ReviewResult, 'estimate'>): string {
  const e = r.estimate;
  const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');
  return `reviewed: ${e.reviewed} passages (${e.words} words, ${e.individuals} individuals), miss rate ${pct(e.missRate.value)} [${pct(e.missRate.interval[0])}, ${pct(e.missRate.interval[1])}] of ${e.identifiers} identifiers`;
}

/**
 * The reviewed passages as gold for `blacklist eval` (ppmlm span JSONL): each passage a document of its
 * individual, its identifiers the missed marks (labelled by type) and the protected spans judged identifiers
 * (labelled by their category), overlapping ones merged under the missed mark's type.
 */
export function marksToGold(sample: ReviewSample, marks: ReviewMarks): SpanDocument[] {
  const docs: SpanDocument[] = [];
  marks.items.forEach((m, i) => {
    if (!m.reviewed) return;
    const item = sample.items[i]!;
    const spans: { start: number; end: number; label: string }[] = m.missed.map((x) => ({ start: x.start, end: x.end, label: x.type }));
    item.spans.forEach((s, j) => {
      if (m.spans[j] !== 'identifier' || spans.some((x) => x.start < s.end && x.end > s.start)) return;
      spans.push({ start: s.start, end: s.end, label: s.category });
    });
    // Identifier spans of different categories that overlap each other keep the first (gold gives a character one label).
    const kept: typeof spans = [];
    for (const s of spans.sort((a, b) => a.start - b.start)) if (!kept.some((k) => k.start < s.end && k.end > s.start && k.label !== s.label)) kept.push(s);
    docs.push({ id: `${item.doc}@${item.start}`, author: item.individual, text: item.text, spans: kept });
  });
  return docs;
}

/**
 * A new blacklist: `blacklist` plus the missed identifiers of the reviewed passages as direct terms
 * (category = the reviewer's type, source `review:<sample>`). It depends on the reviewed corpus, so its
 * header says `public-corpus: no` whatever the original said (a DP run refuses it), and `reviewed` names
 * the sample.
 */
export function applyReview(blacklist: Blacklist, sample: ReviewSample, marks: ReviewMarks): { blacklist: Blacklist; added: number } {
  const source = `review:${sample.fingerprint}`;
  const byTerm = new Map<string, BlacklistEntry>(blacklist.entries.map((e) => [e.term, e]));
  const individuals = new Map<string, Set<string>>();
  let added = 0;
  marks.items.forEach((m, i) => {
    if (!m.reviewed) return;
    const item = sample.items[i]!;
    for (const x of m.missed) {
      const term = canonicalTerm(item.text.slice(x.start, x.end));
      if (term === '') continue;
      const seen = individuals.get(term) ?? new Set<string>();
      seen.add(item.individual);
      individuals.set(term, seen);
      const entry: BlacklistEntry = byTerm.get(term) ?? (added++, { term, kind: 'direct', category: x.type, authors: 0, occurrences: 0, sources: [] as string[] });
      byTerm.set(term, { ...entry, kind: 'direct', authors: Math.max(entry.authors, seen.size), occurrences: entry.occurrences + 1, sources: entry.sources.includes(source) ? entry.sources : [...entry.sources, source] });
    }
  });
  return {
    blacklist: { header: { ...blacklist.header, created: new Date().toISOString(), extra: { ...blacklist.header.extra, 'public-corpus': 'no', reviewed: sample.fingerprint } }, entries: [...byTerm.values()] },
    added,
  };
}
