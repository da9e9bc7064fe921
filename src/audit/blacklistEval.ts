import { goldType, type SpanDocument } from '../corpus/index.js';
import { Rng } from '../engine/index.js';
import { BlacklistMatcher, detectDirect, mergeSpans, ownTextBlacklists, protectedSpans, type Blacklist, type BlacklistEntry, type OwnTextOptions, type Recognizer } from '../identifiers/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { clusteredProportionInterval, type Cluster } from './metrics.js';

/** What a protection covers in one document: the character spans protected, and the direct detections among them. */
export interface DocumentProtection {
  /**
   * Every protected occurrence (any overlap allowed), with what protects it where known: a direct
   * detection's category (DATE, PERSON), or `indirect` for a term that is rare among individuals.
   */
  covered: readonly { start: number; end: number; protectedBy?: string }[];
  /** The occurrences that came from direct identifiers, with their category: the ones precision is about. */
  detections: readonly { start: number; end: number; category: string }[];
}

export type Protection = (doc: SpanDocument) => Promise<DocumentProtection>;

/**
 * A blacklist as constrained masking applies it: every term at every occurrence, found by the blacklist
 * matcher on the same content words. `only` keeps one kind of entry (the recognisers alone are `direct`).
 */
export function blacklistProtection(list: Blacklist, options: { analyzer?: MorphAnalyzer; only?: 'direct' | 'indirect' } = {}): Protection {
  const entries = options.only ? list.entries.filter((e) => e.kind === options.only) : list.entries;
  const matcher = new BlacklistMatcher(entries);
  return async (doc) => {
    const found = await matcher.match(doc.text, options.analyzer);
    return { covered: found.map((m) => ({ start: m.start, end: m.end, protectedBy: protectedBy(entries[m.entry]!) })), detections: found.filter((m) => entries[m.entry]!.kind === 'direct').map((m) => ({ start: m.start, end: m.end, category: entries[m.entry]!.category })) };
  };
}

/** What a blacklist entry protects as: its category when a recogniser found it, else `indirect`. */
const protectedBy = (e: BlacklistEntry) => (e.kind === 'direct' ? e.category : 'indirect');

/**
 * Occurrence-level protection: the direct identifiers only where a recogniser fired, plus the indirect
 * terms of `list` everywhere. The alternative to applying every found term everywhere, measured beside it.
 */
export function occurrenceProtection(recognizers: readonly Recognizer[], list: Blacklist, options: { analyzer?: MorphAnalyzer } = {}): Protection {
  const indirect = blacklistProtection(list, { analyzer: options.analyzer, only: 'indirect' });
  return async (doc) => {
    const detections = await detectDirect(doc.text, recognizers);
    return { covered: [...detections.flatMap((d) => protectedSpans(d).map((s) => ({ ...s, protectedBy: d.category }))), ...(await indirect(doc)).covered], detections };
  };
}

/**
 * Protection per individual from their own text and public data ({@link ownTextBlacklists}): each
 * individual's terms at every occurrence in that individual's documents only, as DP fine-tuning with
 * `--protect-own-text` applies them.
 */
export async function ownTextProtection(docs: readonly SpanDocument[], options: OwnTextOptions = {}): Promise<Protection> {
  const byAuthor = await ownTextBlacklists(docs, (d) => d.author, options);
  const matchers = new Map([...byAuthor].map(([author, entries]) => [author, { entries, matcher: new BlacklistMatcher(entries) }]));
  return async (doc) => {
    const own = matchers.get(doc.author);
    if (own === undefined) return { covered: [], detections: [] };
    const found = await own.matcher.match(doc.text, options.analyzer);
    return { covered: found.map((m) => ({ start: m.start, end: m.end, protectedBy: protectedBy(own.entries[m.entry]!) })), detections: found.filter((m) => own.entries[m.entry]!.kind === 'direct').map((m) => ({ start: m.start, end: m.end, category: own.entries[m.entry]!.category })) };
  };
}

/** A proportion with its 95% interval over individuals and the count it is out of. */
export interface Proportion {
  value: number;
  interval: [number, number];
  /** The denominator: gold spans, detections or word characters. */
  n: number;
}

/** A proportion as `blacklist eval` prints it: percent and its 95% interval (`98.0% [97.2, 98.7]`), "–" when undefined. */
export const formatProportion = (p: Proportion): string =>
  Number.isNaN(p.value) ? '–' : `${(100 * p.value).toFixed(1)}% [${(100 * p.interval[0]).toFixed(1)}, ${(100 * p.interval[1]).toFixed(1)}]`;

export interface TypeCoverage {
  type: string;
  gold: number;
  /** Gold spans that any protected occurrence overlaps. */
  anyOverlap: Proportion;
  /** Gold spans whose every word character is protected. */
  full: Proportion;
}

export interface ProtectionEvaluation {
  documents: number;
  individuals: number;
  /** One row per gold type, then `all`. */
  types: TypeCoverage[];
  /** Direct detections that overlap a gold span, overall and by detection category. */
  precision: Proportion;
  precisionByCategory: { category: string; precision: Proportion }[];
  /** Word characters outside every gold span that are protected: the text constrained masking no longer learns from. */
  otherTextProtected: Proportion;
  /**
   * The same share by what protects it (a direct category such as DATE, or `indirect`), largest first: a
   * character covered by several counts under each, so the rows can sum to more than the whole.
   */
  otherTextProtectedBy: { protectedBy: string; share: Proportion }[];
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

interface Tally {
  gold: Map<string, { n: number; any: number; full: number }>;
  detections: Map<string, { n: number; correct: number }>;
  other: { n: number; covered: number };
  /** Other-text characters covered, by what covers them. */
  otherBy: Map<string, number>;
}

/** Tallies one document into its individual's counts; returns the gold spans it leaves not fully protected. */
function tallyDocument(doc: SpanDocument, protection: DocumentProtection, typeOf: (label: string) => string, into: Tally): SpanDocument['spans'] {
  const covered = new Uint8Array(doc.text.length);
  for (const [s, e] of mergeSpans(protection.covered)) covered.fill(1, s, e);
  const gold = new Uint8Array(doc.text.length);
  for (const g of doc.spans) gold.fill(1, g.start, g.end);
  const missed: SpanDocument['spans'] = [];
  for (const g of doc.spans) {
    let any = false;
    let full = true;
    let words = 0;
    for (let i = g.start; i < g.end; i++) {
      if (covered[i]) any = true;
      if (!WORD_CHAR.test(doc.text[i]!)) continue;
      words++;
      if (!covered[i]) full = false;
    }
    // A span with no word character (a stray symbol) counts as protected when touched.
    if (words === 0) full = any;
    const t = getOr(into.gold, typeOf(g.label), () => ({ n: 0, any: 0, full: 0 }));
    t.n++;
    t.any += any ? 1 : 0;
    t.full += full ? 1 : 0;
    if (!full) missed.push(g);
  }
  for (const d of protection.detections) {
    let hit = false;
    for (let i = d.start; i < d.end && !hit; i++) hit = gold[i] === 1;
    const t = getOr(into.detections, d.category, () => ({ n: 0, correct: 0 }));
    t.n++;
    t.correct += hit ? 1 : 0;
  }
  const other = new Uint8Array(doc.text.length);
  for (let i = 0; i < doc.text.length; i++) {
    if (gold[i] || !WORD_CHAR.test(doc.text[i]!)) continue;
    other[i] = 1;
    into.other.n++;
    into.other.covered += covered[i]!;
  }
  const byKind = new Map<string, { start: number; end: number }[]>();
  for (const c of protection.covered) if (c.protectedBy !== undefined) getOr(byKind, c.protectedBy, () => []).push(c);
  for (const [kind, spans] of byKind) {
    let n = 0;
    for (const [s, e] of mergeSpans(spans)) for (let i = s; i < e; i++) n += other[i]!;
    into.otherBy.set(kind, (into.otherBy.get(kind) ?? 0) + n);
  }
  return missed;
}

function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

/**
 * Measures a protection against gold identifier spans, per individual: recall (any overlap, and every word
 * character covered), the precision of the direct detections, and the share of the other text protected.
 * Each figure carries a 95% interval over individuals (see {@link clusteredProportionInterval}): the notes of
 * one patient share their identifiers, so they are resampled together. `onMissed` receives each document
 * that has gold spans not fully protected, with those spans only (for error analysis; they are personal data).
 */
export async function evaluateProtection(
  docs: readonly SpanDocument[],
  protect: Protection,
  options: { typeOf?: (label: string) => string; seed?: number; iterations?: number; onProgress?: (done: number) => void; onMissed?: (doc: SpanDocument) => Promise<void> } = {},
): Promise<ProtectionEvaluation> {
  const typeOf = options.typeOf ?? goldType;
  const byAuthor = new Map<string, Tally>();
  for (const [i, doc] of docs.entries()) {
    const tally = getOr(byAuthor, doc.author, () => ({ gold: new Map(), detections: new Map(), other: { n: 0, covered: 0 }, otherBy: new Map() }));
    const missed = tallyDocument(doc, await protect(doc), typeOf, tally);
    if (missed.length > 0) await options.onMissed?.({ ...doc, spans: missed });
    if ((i + 1) % 200 === 0) options.onProgress?.(i + 1);
  }
  const tallies = [...byAuthor.values()];
  const rng = new Rng(options.seed ?? 1);
  const iterations = options.iterations ?? 1000;
  const proportion = (clusters: Cluster[]): Proportion => {
    const num = clusters.reduce((s, c) => s + c.num, 0);
    const den = clusters.reduce((s, c) => s + c.den, 0);
    return { value: den === 0 ? NaN : num / den, interval: clusteredProportionInterval(clusters, rng, iterations), n: den };
  };
  const types = [...new Set(tallies.flatMap((t) => [...t.gold.keys()]))].sort();
  const goldRow = (type: string, pick: (t: Tally) => { n: number; any: number; full: number }[]): TypeCoverage => {
    const per = tallies.map((t) => pick(t).reduce((a, b) => ({ n: a.n + b.n, any: a.any + b.any, full: a.full + b.full }), { n: 0, any: 0, full: 0 }));
    return {
      type,
      gold: per.reduce((s, p) => s + p.n, 0),
      anyOverlap: proportion(per.map((p) => ({ num: p.any, den: p.n }))),
      full: proportion(per.map((p) => ({ num: p.full, den: p.n }))),
    };
  };
  const categories = [...new Set(tallies.flatMap((t) => [...t.detections.keys()]))].sort();
  const detectionsOf = (t: Tally, only?: string) => [...t.detections].filter(([c]) => only === undefined || c === only).reduce((a, [, d]) => ({ num: a.num + d.correct, den: a.den + d.n }), { num: 0, den: 0 });
  return {
    documents: docs.length,
    individuals: tallies.length,
    types: [...types.map((type) => goldRow(type, (t) => (t.gold.has(type) ? [t.gold.get(type)!] : []))), goldRow('all', (t) => [...t.gold.values()])],
    precision: proportion(tallies.map((t) => detectionsOf(t))),
    precisionByCategory: categories.map((category) => ({ category, precision: proportion(tallies.map((t) => detectionsOf(t, category))) })),
    otherTextProtected: proportion(tallies.map((t) => ({ num: t.other.covered, den: t.other.n }))),
    otherTextProtectedBy: [...new Set(tallies.flatMap((t) => [...t.otherBy.keys()]))]
      .map((protectedBy) => ({ protectedBy, share: proportion(tallies.map((t) => ({ num: t.otherBy.get(protectedBy) ?? 0, den: t.other.n }))) }))
      .sort((a, b) => b.share.value - a.share.value || (a.protectedBy < b.protectedBy ? -1 : 1)),
  };
}
