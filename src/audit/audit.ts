import { createHash, randomBytes } from 'node:crypto';
import type { Document } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { Rng } from '../engine/random.js';
import { assertSameAnalyzer, blacklistFingerprint, occurrenceTokens, type Blacklist } from '../identifiers/index.js';
import type { EncoderModel, Provenance } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import { DEFAULT_SEQ_LEN } from '../mlm/index.js';
import { firstDifferentToken, morphemesFor, tokenizeAtMorphemes, type Encoding, type Tokenizer } from '../tokenizer/index.js';
import { secretExposure, type ExposureProbe, type ExposureResult } from './exposure.js';
import type { GoldSpan } from './gold.js';
import { predictMasked, type MaskedQuery } from './inference.js';
import { fillMaskAccuracy, meanDocumentLoss, membershipLevel, membershipTallies, type MembershipDocument, type MembershipLevel, type MembershipOptions, type ReferenceScorer, type Scorer } from './membership.js';
import { clusteredProportionInterval, type Cluster, type RocWithInterval } from './metrics.js';
import { findOccurrences, occurrenceQuery, queryTokens, type Occurrence } from './queries.js';

export interface AuditModel {
  name: string;
  model: EncoderModel;
  tokenizer: Tokenizer;
  provenance?: Provenance;
}

export interface AuditOptions {
  target: AuditModel;
  /** The model before fine-tuning, for the reference-calibrated and PLL ratio attacks. */
  reference?: AuditModel;
  /**
   * Reference models for offline LiRA, fine-tuned like the target on data that excludes the members
   * (disjoint public or non-member splits); `trainedOn` names the documents one trained on, which are
   * never its out-examples.
   */
  references?: readonly (AuditModel & { trainedOn?: ReadonlySet<string> })[];
  /** Gold identifier spans on the member documents (see readGold / alignGold). */
  gold?: readonly GoldSpan[];
  /** Member documents left out of membership inference (those carrying planted canaries). */
  excludeFromMembership?: ReadonlySet<number>;
  /** Positions (and occurrences) per document scored one at a time for the PLL ratio attack (default 1; 0 turns it off). */
  pllSamples?: number;
  /** Bootstrap iterations of the membership intervals (default 200). */
  bootstrapIterations?: number;
  members: readonly Document[];
  nonMembers: readonly Document[];
  blacklist: Blacklist;
  seqLen?: number;
  /** Occurrences evaluated for the privacy score (a seeded sample when there are more). */
  maxOccurrences?: number;
  maskProb?: number;
  seed?: number;
  /** Show terms in clear in the report; otherwise salted hashes. */
  showIdentifiers?: boolean;
  /** Blacklist categories reported on their own as well (e.g. CANARY for planted positive controls). */
  reportCategories?: readonly string[];
  /** Planted secrets whose exposure (Secret Sharer) is measured. */
  exposure?: readonly ExposureProbe[];
  /** Control secrets from the same generator, never planted: the null the planted exposure is compared with. */
  controlExposure?: readonly ExposureProbe[];
  /** Where the blacklist came from, as the report states it. */
  blacklistScope?: 'members' | 'given';
  analyzer?: MorphAnalyzer;
  onProgress?: (stage: string, done: number, total: number) => void;
  onWarn?: (message: string) => void;
}

export interface PrivacyScore {
  /**
   * The headline: 1 − the share of occurrences recovered, an occurrence being recovered when every one of
   * its subwords is the model's top-1 with the whole occurrence masked.
   */
  score: number;
  /** 95% interval of `score` from a bootstrap over individuals (authors). */
  ci: [number, number];
  occurrences: number;
  tokens: number;
  /** Share of occurrences whose every subword was predicted top-1 (1 − score). */
  fullyRecovered: number;
  /** The second figure: 1 − top-1 accuracy over single subwords, with its individual-bootstrap interval. */
  subword: { score: number; ci: [number, number] };
  /** Individuals (authors) the occurrences belong to: the unit the interval resamples. */
  individuals: number;
}

export interface RegurgitationRow {
  /** The term itself with showIdentifiers, else `id-<salted hash>`. */
  term: string;
  kind: string;
  category: string;
  /** Occurrences in the member (training) documents. */
  trainingOccurrences: number;
  evaluated: number;
  top1: number;
  top5: number;
}

export interface MembershipResult {
  members: number;
  nonMembers: number;
  /** Per document, all positions: `byDocument.all.loss` (kept for readers of earlier reports). */
  loss: RocWithInterval;
  calibrated?: RocWithInterval;
  meanLoss: { members: number; nonMembers: number };
  /** Each individual's documents pooled into one score; intervals from a bootstrap over individuals. */
  byIndividual: MembershipLevel;
  byDocument: MembershipLevel;
  /** Member documents left out because they carry planted canaries (their template marks them as members). */
  excludedDocuments: number;
  /** Reference models LiRA used. */
  references: number;
}

/** A mean over secrets with its standard error. */
/** The mean exposure of secrets, its standard error clustered (see {@link ExposureProbe.cluster}), and the counts. */
export interface ExposureSummary {
  mean: number;
  se: number;
  /** Secrets scored. */
  n: number;
  /** Clusters the standard error treats as independent (with every secret its own cluster, n). */
  clusters: number;
  /** Secrets that yielded no query, left out. */
  unscored: number;
}

export interface AuditReport {
  createdAt: string;
  target: { name: string; provenance?: Provenance };
  reference?: { name: string };
  blacklistFingerprint: string;
  /** `members`: built from the member documents only (the paper's setting); `given`: a blacklist used as is. */
  blacklistScope?: 'members' | 'given';
  privacy: { all: PrivacyScore; direct: PrivacyScore; indirect: PrivacyScore; byCategory?: Record<string, PrivacyScore> };
  /** Against gold identifier spans: the blacklist's recall of gold occurrences and privacy on those it missed. */
  gold?: {
    occurrences: number;
    /** Share of gold occurrences whose every subword is protected. */
    recall: number;
    ci: [number, number];
    byLabel: Record<string, { occurrences: number; recall: number }>;
    /** Privacy score on the gold occurrences the blacklist missed (each masked whole). */
    missed: PrivacyScore;
  };
  regurgitation: { rows: RegurgitationRow[]; top1Terms: number; top5Terms: number; identifiersShown: boolean };
  membership: MembershipResult;
  /** Exposure of planted secrets, in bits (see {@link secretExposure}). */
  exposure?: { probes: ExposureResult[]; mean: number; max: number };
  /** Planted exposure against the control secrets never planted; the headline is their difference. */
  canaries?: { planted: ExposureSummary; control: ExposureSummary & { probes: ExposureResult[] }; difference: { value: number; se: number } };
  utility: {
    accuracy: number;
    positions: number;
    unigramBaseline: number;
    reference?: number;
    /** Downstream classification after fine-tuning a sequence-classification head (--task). */
    downstream?: { macroF1: number; microF1: number; train: number; test: number; reference?: { macroF1: number; microF1: number } };
  };
}

interface OccurrenceResult {
  occ: Occurrence;
  correct: number[];
  top5: boolean;
}

/** Occurrence and subword outcomes of each individual, for the bootstrap over individuals. */
function clustersOf(results: readonly OccurrenceResult[], authorOf: (doc: number) => string): { occurrences: Cluster[]; subwords: Cluster[] } {
  const by = new Map<string, { occ: Cluster; sub: Cluster }>();
  for (const r of results) {
    const a = authorOf(r.occ.doc);
    const c = by.get(a) ?? { occ: { num: 0, den: 0 }, sub: { num: 0, den: 0 } };
    c.occ.num += r.correct.every((x) => x === 1) ? 1 : 0;
    c.occ.den++;
    c.sub.num += r.correct.reduce((x, y) => x + y, 0);
    c.sub.den += r.correct.length;
    by.set(a, c);
  }
  return { occurrences: [...by.values()].map((c) => c.occ), subwords: [...by.values()].map((c) => c.sub) };
}

function scoreOf(results: readonly OccurrenceResult[], authorOf: (doc: number) => string, rng: Rng): PrivacyScore {
  const { occurrences, subwords } = clustersOf(results, authorOf);
  const sum = (cs: Cluster[]) => cs.reduce((a, c) => ({ num: a.num + c.num, den: a.den + c.den }), { num: 0, den: 0 });
  const occ = sum(occurrences);
  const sub = sum(subwords);
  const flip = ([lo, hi]: [number, number]): [number, number] => [1 - hi, 1 - lo];
  return {
    score: occ.den ? 1 - occ.num / occ.den : NaN,
    // The bootstrap's hull with Wilson's interval: where no member's occurrence is recovered, every resample
    // scores 1 and the bootstrap alone would collapse to [1, 1].
    ci: flip(clusteredProportionInterval(occurrences, rng)),
    occurrences: occ.den,
    tokens: sub.den,
    fullyRecovered: occ.den ? occ.num / occ.den : 0,
    subword: { score: sub.den ? 1 - sub.num / sub.den : NaN, ci: flip(clusteredProportionInterval(subwords, rng)) },
    individuals: occurrences.length,
  };
}

/** Each occurrence masked whole and asked of the model: top-1 per subword, and whether all are in the top 5. */
async function recover(model: EncoderModel, bodies: readonly Encoding[], occurrences: readonly Occurrence[], seqLen: number, t: ReturnType<typeof queryTokens>, padId: number): Promise<OccurrenceResult[]> {
  const queries = occurrences.map((o) => occurrenceQuery(bodies[o.doc]!, o, seqLen, t));
  const kept = occurrences.filter((_, i) => queries[i] !== undefined);
  const preds = await predictMasked(model, queries.filter((q): q is MaskedQuery => q !== undefined), { padId, topK: 5 });
  return kept.map((occ, i) => ({ occ, correct: preds[i]!.map((p) => (p.top[0] === p.label ? 1 : 0)), top5: preds[i]!.every((p) => p.top.includes(p.label)) }));
}

const scorerOf = (model: EncoderModel, padId: number): Scorer => (queries) => predictMasked(model, queries, { padId, topK: 1 });

/** An exposure and the cluster its error shares (a result of {@link secretExposure}, or a bare number). */
export type ClusteredExposure = Pick<ExposureResult, 'exposure' | 'cluster'>;

/**
 * Mean exposure and its cluster-robust standard error: √(G/(G−1) · Σ_g (Σ_{i∈g} (x_i − x̄))²) / n over G
 * clusters, which is the usual s/√n when every secret is its own cluster. Unscored secrets (NaN) are
 * counted and left out.
 */
function summarise(items: readonly ClusteredExposure[]): ExposureSummary {
  const scored = items.filter((x) => Number.isFinite(x.exposure));
  const n = scored.length;
  const mean = scored.reduce((a, x) => a + x.exposure, 0) / Math.max(1, n);
  const residuals = new Map<string, number>();
  scored.forEach((x, i) => residuals.set(x.cluster ?? `#${i}`, (residuals.get(x.cluster ?? `#${i}`) ?? 0) + x.exposure - mean));
  const G = residuals.size;
  const sum = [...residuals.values()].reduce((a, r) => a + r * r, 0);
  const se = G > 1 ? Math.sqrt((G / (G - 1)) * sum) / n : NaN;
  return { mean, se, n, clusters: G, unscored: items.length - n };
}

/**
 * Planted secrets' exposures against never-planted controls': each summarised, and their difference ±
 * SE (the two clustered standard errors combined: planted and control secrets share no cluster).
 */
export function exposureDifference(planted: readonly (ClusteredExposure | number)[], control: readonly (ClusteredExposure | number)[]): { planted: ExposureSummary; control: ExposureSummary; difference: { value: number; se: number } } {
  const clustered = (xs: readonly (ClusteredExposure | number)[]) => xs.map((x) => (typeof x === 'number' ? { exposure: x } : x));
  const p = summarise(clustered(planted));
  const c = summarise(clustered(control));
  return { planted: p, control: c, difference: { value: p.mean - c.mean, se: Math.hypot(p.se, c.se) } };
}

/**
 * The non-members whose text no member has. One that repeats a member's text (a template, a retweet) is a
 * text the model trained on: scored as unseen, its memorised loss would count against the attack.
 */
export function unseenNonMembers(members: readonly Document[], nonMembers: readonly Document[], onWarn?: (message: string) => void): readonly Document[] {
  const memberTexts = new Set(members.map((d) => d.text));
  const unseen = nonMembers.filter((d) => !memberTexts.has(d.text));
  if (unseen.length === 0) throw new UsageError("every non-member document repeats a member's text; non-members must be texts the model never saw");
  if (unseen.length < nonMembers.length) onWarn?.(`${nonMembers.length - unseen.length} of ${nonMembers.length} non-member documents repeat a member's text and are left out: the model trained on those texts`);
  return unseen;
}

/**
 * The risk audit of a fine-tuned masked LM: privacy score on the blacklisted identifiers of the training
 * (member) documents (and on gold identifiers the blacklist missed), regurgitation per term, membership
 * inference per document and per individual over all / unprotected / protected positions, canary exposure
 * against never-planted controls, and fill-mask utility on non-blacklisted tokens of non-members.
 */
export async function runAudit(options: AuditOptions): Promise<AuditReport> {
  const { target, reference, blacklist, seqLen = DEFAULT_SEQ_LEN, maxOccurrences = 2000, maskProb = 0.15, seed = 7 } = options;
  const tok = target.tokenizer;
  const t = queryTokens(tok);
  const padId = tok.idOf(tok.specials.pad)!;
  const entries = blacklist.entries;
  const nonMembers = unseenNonMembers(options.members, options.nonMembers, options.onWarn);
  const texts = [...options.members, ...nonMembers].map((d) => d.text);
  assertSameAnalyzer(blacklist, options.analyzer, texts);
  const rng = new Rng(seed);
  for (const r of [...(reference ? [reference] : []), ...(options.references ?? [])]) {
    if (r.tokenizer.vocabSize !== tok.vocabSize) throw new UsageError(`${r.name}: its vocabulary (${r.tokenizer.vocabSize} tokens) is not the audited model's (${tok.vocabSize}); reference models must share the tokenizer`);
    // The same size is not the same vocabulary: a reference must read each id as the same token.
    const differs = firstDifferentToken(r.tokenizer, tok);
    if (differs !== undefined) throw new UsageError(`${r.name}: its vocabulary reads id ${differs} as another token than the audited model's; reference models must share the tokenizer`);
  }
  if (options.references?.length === 1) throw new UsageError(`${options.references[0]!.name}: LiRA needs at least 2 reference models; pass more with --references`);
  const authorOf = (doc: number) => options.members[doc]!.author;

  // The model is queried on text cut as it was trained (a vocabulary learnt on Korean morphemes): read
  // otherwise, it meets pieces it seldom saw and looks as if it had memorised less.
  const { morphemes, warning } = morphemesFor(target.provenance?.vocabulary?.morphemes, options.analyzer, texts);
  if (warning) options.onWarn?.(warning);
  const bodiesOf = (docs: readonly Document[]) => Promise.all(docs.map((d) => tokenizeAtMorphemes(tok, d.text, morphemes)));
  const memberBodies = await bodiesOf(options.members);
  const nonMemberBodies = await bodiesOf(nonMembers);
  options.onProgress?.('matching identifiers', 0, 1);
  const member = await findOccurrences(options.members, memberBodies, entries, options.analyzer);
  const nonMember = await findOccurrences(nonMembers, nonMemberBodies, entries, options.analyzer);

  // Privacy score and regurgitation: each occurrence masked on its own (all its subwords).
  const sample = rng.fork(1).shuffle([...member.occurrences]).slice(0, maxOccurrences);
  options.onProgress?.('privacy score', 0, sample.length);
  const results = await recover(target.model, memberBodies, sample, seqLen, t, padId);
  const ofKind = (kind: string) => results.filter((r) => entries[r.occ.entry]!.kind === kind);
  const privacy: AuditReport['privacy'] = { all: scoreOf(results, authorOf, rng.fork(2)), direct: scoreOf(ofKind('direct'), authorOf, rng.fork(3)), indirect: scoreOf(ofKind('indirect'), authorOf, rng.fork(4)) };
  if (options.reportCategories?.length) {
    // Category occurrences are evaluated in full, not sampled: they are few, and the control must not be missed.
    const chosen = new Set(options.reportCategories);
    const sampled = new Set(sample);
    const extra = await recover(target.model, memberBodies, member.occurrences.filter((o) => chosen.has(entries[o.entry]!.category) && !sampled.has(o)), seqLen, t, padId);
    const all = [...results, ...extra];
    privacy.byCategory = Object.fromEntries(options.reportCategories.map((c, i) => [c, scoreOf(all.filter((r) => entries[r.occ.entry]!.category === c), authorOf, rng.fork(10 + i))]));
  }

  let gold: AuditReport['gold'];
  if (options.gold) {
    options.onProgress?.('gold identifiers', 0, options.gold.length);
    const spans = options.gold.flatMap((g) => {
      const tokens = occurrenceTokens(memberBodies[g.doc]!.offsets, g, memberBodies[g.doc]!.special);
      return tokens.length ? [{ g, tokens, found: tokens.every((i) => member.protectedMasks[g.doc]![i] === 1) }] : [];
    });
    const byAuthor = new Map<string, Cluster>();
    for (const s of spans) {
      const c = byAuthor.get(authorOf(s.g.doc)) ?? { num: 0, den: 0 };
      c.num += s.found ? 1 : 0;
      c.den++;
      byAuthor.set(authorOf(s.g.doc), c);
    }
    const byLabel: Record<string, { occurrences: number; recall: number }> = {};
    for (const label of [...new Set(spans.map((s) => s.g.label))].sort()) {
      const of = spans.filter((s) => s.g.label === label);
      byLabel[label] = { occurrences: of.length, recall: of.filter((s) => s.found).length / of.length };
    }
    const missed = rng.fork(5).shuffle(spans.filter((s) => !s.found)).slice(0, maxOccurrences).map((s): Occurrence => ({ doc: s.g.doc, entry: -1, tokens: s.tokens }));
    gold = {
      occurrences: spans.length,
      recall: spans.length ? spans.filter((s) => s.found).length / spans.length : NaN,
      ci: clusteredProportionInterval([...byAuthor.values()], rng.fork(6)),
      byLabel,
      missed: scoreOf(await recover(target.model, memberBodies, missed, seqLen, t, padId), authorOf, rng.fork(7)),
    };
  }

  const salt = randomBytes(16);
  const label = (term: string) => (options.showIdentifiers ? term : `id-${createHash('sha256').update(salt).update(term).digest('hex').slice(0, 10)}`);
  const trainingCounts = new Map<number, number>();
  for (const o of member.occurrences) trainingCounts.set(o.entry, (trainingCounts.get(o.entry) ?? 0) + 1);
  const byEntry = new Map<number, OccurrenceResult[]>();
  for (const r of results) byEntry.set(r.occ.entry, [...(byEntry.get(r.occ.entry) ?? []), r]);
  const rows: RegurgitationRow[] = [...byEntry].map(([entry, rs]) => ({
    term: label(entries[entry]!.term),
    kind: entries[entry]!.kind,
    category: entries[entry]!.category,
    trainingOccurrences: trainingCounts.get(entry) ?? 0,
    evaluated: rs.length,
    top1: rs.filter((r) => r.correct.every((c) => c === 1)).length / rs.length,
    top5: rs.filter((r) => r.top5).length / rs.length,
  }));
  rows.sort((a, b) => b.top1 - a.top1 || b.trainingOccurrences - a.trainingOccurrences);

  // Membership inference with paired, fixed masks; the non-members' unprotected positions also measure utility.
  const excluded = options.excludeFromMembership ?? new Set<number>();
  const docsOf = (docs: readonly Document[], bodies: readonly Encoding[], found: typeof member, keep: (i: number) => boolean): MembershipDocument[] =>
    docs.flatMap((d, i) => (keep(i) ? [{ id: d.id, author: d.author, body: bodies[i]!, protectedMask: found.protectedMasks[i]!, occurrences: found.occurrences.filter((o) => o.doc === i).map((o) => o.tokens) }] : []));
  const memberDocs = docsOf(options.members, memberBodies, member, (i) => !excluded.has(i));
  const nonMemberDocs = docsOf(nonMembers, nonMemberBodies, nonMember, () => true);
  options.onProgress?.('membership inference', 0, memberDocs.length + nonMemberDocs.length);
  const refs: ReferenceScorer[] = (options.references ?? []).map((r) => ({ scorer: scorerOf(r.model, padId), ...(r.trainedOn && { trainedOn: r.trainedOn }) }));
  const models = { target: scorerOf(target.model, padId), ...(reference && { reference: scorerOf(reference.model, padId) }), references: refs };
  const miaOptions: MembershipOptions = { seqLen, maskProb, seed, pllSamples: reference ? (options.pllSamples ?? 1) : 0, tokens: t, ...(options.bootstrapIterations && { iterations: options.bootstrapIterations }) };
  const m = await membershipTallies(memberDocs, seed * 7919, models, miaOptions);
  const n = await membershipTallies(nonMemberDocs, seed * 104729, models, miaOptions);
  const sides = [{ docs: memberDocs, tallies: m.tallies }, { docs: nonMemberDocs, tallies: n.tallies }] as const;
  const byDocument = membershipLevel(sides[0], sides[1], refs, 'document', seed, options.bootstrapIterations);
  const byIndividual = membershipLevel(sides[0], sides[1], refs, 'individual', seed + 1, options.bootstrapIterations);
  if (!byDocument.all) throw new UsageError(`membership inference needs a member and a non-member document with tokens (${memberDocs.length} members${excluded.size ? ` after leaving out ${excluded.size} carrying canaries` : ''}, ${nonMemberDocs.length} non-members); check --members and --non-members`);
  const membership: MembershipResult = {
    members: memberDocs.length,
    nonMembers: nonMemberDocs.length,
    loss: byDocument.all.loss,
    ...(byDocument.all.calibrated && { calibrated: byDocument.all.calibrated }),
    meanLoss: { members: meanDocumentLoss(m.tallies.target), nonMembers: meanDocumentLoss(n.tallies.target) },
    byIndividual,
    byDocument,
    excludedDocuments: excluded.size,
    references: refs.length,
  };

  const utility = fillMaskAccuracy(n.tallies.target);
  const referenceUtility = n.tallies.reference && fillMaskAccuracy(n.tallies.reference).accuracy;
  const unigram = mostFrequentToken(memberBodies, new Set(tok.specialIds));
  const labels = n.queries.flatMap((q) => q.fixed.queries.flatMap((x, i) => x.labels.filter((_, k) => q.fixed.kinds[i]![k] === 'unprotected')));
  const unigramBaseline = labels.filter((l) => l === unigram).length / Math.max(1, labels.length);

  let exposure: AuditReport['exposure'];
  let canaries: AuditReport['canaries'];
  if (options.exposure?.length) {
    options.onProgress?.('exposure', 0, options.exposure.length);
    const probes = await secretExposure(target.model, tok, options.exposure, { seqLen, padId, morphemes });
    const scored = probes.map((p) => p.exposure).filter(Number.isFinite);
    exposure = { probes, mean: summarise(probes).mean, max: scored.length ? Math.max(...scored) : NaN };
    if (options.controlExposure?.length) {
      const controls = await secretExposure(target.model, tok, options.controlExposure, { seqLen, padId, morphemes });
      const { planted, control, difference } = exposureDifference(probes, controls);
      canaries = { planted, control: { ...control, probes: controls }, difference };
    }
  }

  return {
    createdAt: new Date().toISOString(),
    target: { name: target.name, ...(target.provenance && { provenance: target.provenance }) },
    ...(reference && { reference: { name: reference.name } }),
    blacklistFingerprint: blacklistFingerprint(blacklist),
    ...(options.blacklistScope && { blacklistScope: options.blacklistScope }),
    privacy,
    ...(gold && { gold }),
    regurgitation: { rows, top1Terms: rows.filter((r) => r.top1 > 0).length, top5Terms: rows.filter((r) => r.top5 > 0).length, identifiersShown: options.showIdentifiers === true },
    membership,
    ...(exposure && { exposure }),
    ...(canaries && { canaries }),
    utility: { ...utility, unigramBaseline, ...(referenceUtility !== undefined && { reference: referenceUtility }) },
  };
}

function mostFrequentToken(bodies: readonly Encoding[], exclude: ReadonlySet<number>): number {
  const counts = new Map<number, number>();
  for (const b of bodies) for (const id of b.ids) if (!exclude.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
  let best = -1;
  let bestCount = -1;
  for (const [id, c] of counts) if (c > bestCount) [best, bestCount] = [id, c];
  return best;
}
