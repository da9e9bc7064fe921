import { corpusFingerprinter, type Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import { BlacklistMatcher, blacklistFingerprint, type Blacklist, type TermMatch } from '../identifiers/index.js';
import { keyedFingerprint } from '../io/index.js';
import { segmentWords, type MorphAnalyzer } from '../text/index.js';

/**
 * A passage a reviewer reads: whole sentences of one document, about `words` words together. The unit the
 * review samples; every passage of the corpus has the same chance of being drawn.
 */
export interface Passage {
  /** Index of the document in the corpus. */
  doc: number;
  individual: string;
  start: number;
  end: number;
  words: number;
}

/** A protected occurrence inside an item, offsets relative to the item's text. */
export interface ReviewSpan {
  start: number;
  end: number;
  kind: 'direct' | 'indirect';
  category: string;
  /** The entry's sources (`rule:date`, `list:names`, `graph:k=2`, ...). */
  source: string;
}

export interface ReviewItem {
  individual: string;
  /** The document's id and where the passage sits in it. */
  doc: string;
  start: number;
  end: number;
  text: string;
  words: number;
  /** Where each word of `text` lies ({@link segmentWords}): the page's word cursor walks them. */
  wordSpans: [number, number][];
  spans: ReviewSpan[];
}

/**
 * A drawn review sample: what the page shows and what an import checks marks against. The corpus and
 * blacklist are named by keyed fingerprints (the data holder's key), so the page confirms no candidate list.
 */
export interface ReviewSample {
  format: 'ppmlm-review-sample';
  version: 1;
  /** Keyed fingerprint of the draw: corpus, blacklist, seed, size and every item's place. */
  fingerprint: string;
  corpus: string;
  blacklist: string;
  seed: number;
  /** Words per passage the corpus was cut into. */
  passageWords: number;
  /** Passages in the corpus, and how many individuals wrote them: the population the sample stands for. */
  population: { passages: number; individuals: number; words: number };
  items: ReviewItem[];
}

/** A sentence ends at . ! ? (and 다. in Korean) followed by white space, or at a line break. */
const SENTENCE_END = /(?<=[.!?。])\s+|\n\s*/gu;


/**
 * Cuts one document into passages: sentences joined while they hold at most `words` words together; a
 * sentence longer than twice that is cut at white space into pieces of `words` words. Passages without a
 * letter or digit are left out (a reviewer has nothing to judge in them).
 */
export function passagesOf(text: string, words = 40): { start: number; end: number; words: number }[] {
  const sentences: { start: number; end: number; words: number }[] = [];
  let from = 0;
  const push = (start: number, end: number) => {
    while (start < end && /\s/u.test(text[start]!)) start++;
    while (end > start && /\s/u.test(text[end - 1]!)) end--;
    if (end <= start) return;
    const found = segmentWords(text.slice(start, end));
    if (found.length === 0) return;
    if (found.length <= 2 * words) {
      sentences.push({ start, end, words: found.length });
      return;
    }
    // Too long for one passage: pieces of `words` words, cut before a word.
    let pieceStart = start;
    let seen = 0;
    for (const w of found) {
      if (seen === words) {
        sentences.push({ start: pieceStart, end: start + w.start, words: seen });
        pieceStart = start + w.start;
        seen = 0;
      }
      seen++;
    }
    sentences.push({ start: pieceStart, end, words: seen });
  };
  for (const m of text.matchAll(SENTENCE_END)) {
    push(from, m.index);
    from = m.index + m[0].length;
  }
  push(from, text.length);
  const out: { start: number; end: number; words: number }[] = [];
  for (const s of sentences) {
    const last = out.at(-1);
    if (last !== undefined && last.words + s.words <= words) {
      last.end = s.end;
      last.words += s.words;
    } else out.push({ ...s });
  }
  // Piece ends may keep trailing white space.
  for (const p of out) while (p.end > p.start && /\s/u.test(text[p.end - 1]!)) p.end--;
  return out;
}

/**
 * Every passage of a corpus, grouped by individual in a seeded random order of individuals (documents and
 * passages in corpus order within each): a systematic draw over this list is stratified by individual.
 */
export function corpusPassages(docs: readonly Document[], seed: number, words = 40): Passage[] {
  const byIndividual = new Map<string, Passage[]>();
  docs.forEach((d, doc) => {
    const list = byIndividual.get(d.author) ?? [];
    for (const p of passagesOf(d.text, words)) list.push({ doc, individual: d.author, ...p });
    byIndividual.set(d.author, list);
  });
  const order = new Rng(seed).shuffle([...byIndividual.keys()].sort());
  return order.flatMap((i) => byIndividual.get(i)!);
}

/**
 * A systematic sample of `size` passages with a random start: every passage is drawn with probability
 * size / passages (so the sample weighs itself: no weights are needed), and each individual gets their share
 * of the sample, to within one passage (implicit stratification). All passages when size reaches them.
 */
export function drawPassages(passages: readonly Passage[], size: number, seed: number): Passage[] {
  if (size >= passages.length) return [...passages];
  const step = passages.length / size;
  const start = new Rng(seed ^ 0x2545f491).next() * step;
  return Array.from({ length: size }, (_, i) => passages[Math.floor(start + i * step)]!);
}

/** The protected occurrences inside a passage, clipped to it, relative to its start. */
export function passageSpans(matches: readonly TermMatch[], blacklist: Blacklist, passage: { start: number; end: number }): ReviewSpan[] {
  const spans: ReviewSpan[] = [];
  for (const m of matches) {
    if (m.end <= passage.start || m.start >= passage.end) continue;
    const e = blacklist.entries[m.entry]!;
    spans.push({ start: Math.max(m.start, passage.start) - passage.start, end: Math.min(m.end, passage.end) - passage.start, kind: e.kind, category: e.category, source: e.sources.join(',') });
  }
  return spans.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** A drawn passage as the reviewer sees it. */
export function reviewItem(doc: Document, p: Passage, spans: ReviewSpan[]): ReviewItem {
  const text = doc.text.slice(p.start, p.end);
  return { individual: p.individual, doc: doc.id, start: p.start, end: p.end, text, words: p.words, wordSpans: segmentWords(text).map((w): [number, number] => [w.start, w.end]), spans };
}

/** The keyed fingerprint of a draw: what marks must come from to be imported against it. */
export function sampleFingerprint(sample: Omit<ReviewSample, 'fingerprint' | 'format' | 'version'>): string {
  return keyedFingerprint([sample.corpus, sample.blacklist, String(sample.seed), String(sample.passageWords), ...sample.items.map((i) => `${i.doc}\0${i.start}\0${i.end}`)]);
}

export interface DrawReviewOptions {
  /** Passages to draw (default 200: about an hour of review). */
  size?: number;
  seed?: number;
  /** Words per passage (default 40). */
  passageWords?: number;
  analyzer?: MorphAnalyzer;
}

/**
 * Draws a review sample of a corpus against a blacklist: passages drawn systematically over the corpus's
 * passages grouped by individual, each with the blacklist's protected occurrences, as constrained masking
 * applies them (every term at every occurrence).
 */
export async function drawReviewSample(docs: readonly Document[], blacklist: Blacklist, options: DrawReviewOptions = {}): Promise<ReviewSample> {
  const { size = 200, seed = 1, passageWords = 40 } = options;
  const passages = corpusPassages(docs, seed, passageWords);
  const drawn = drawPassages(passages, size, seed);
  const matcher = new BlacklistMatcher(blacklist.entries);
  const matches = new Map<number, TermMatch[]>();
  for (const p of drawn) if (!matches.has(p.doc)) matches.set(p.doc, await matcher.match(docs[p.doc]!.text, options.analyzer));
  const items = drawn.map((p) => reviewItem(docs[p.doc]!, p, passageSpans(matches.get(p.doc)!, blacklist, p)));
  const fingerprint = corpusFingerprinter();
  for (const d of docs) fingerprint.add(d);
  const body = {
    corpus: fingerprint.digest(),
    blacklist: blacklistFingerprint(blacklist),
    seed,
    passageWords,
    population: { passages: passages.length, individuals: new Set(docs.map((d) => d.author)).size, words: passages.reduce((s, p) => s + p.words, 0) },
    items,
  };
  return { format: 'ppmlm-review-sample', version: 1, fingerprint: sampleFingerprint(body), ...body };
}
