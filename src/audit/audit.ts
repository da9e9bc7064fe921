import { createHash, randomBytes } from 'node:crypto';
import type { Document } from '../corpus/index.js';
import { Rng } from '../engine/random.js';
import { blacklistFingerprint, type Blacklist } from '../identifiers/index.js';
import type { EncoderModel, Provenance } from '../model/index.js';
import type { MorphAnalyzer } from '../text/index.js';
import type { Encoding, Tokenizer } from '../tokenizer/index.js';
import { secretExposure, type ExposureProbe, type ExposureResult } from './exposure.js';
import { predictMasked, type MaskedQuery } from './inference.js';
import { bootstrapMean, roc, type RocResult } from './metrics.js';
import { documentQueries, findOccurrences, occurrenceQuery, queryTokens, type Occurrence } from './queries.js';

export interface AuditModel {
  name: string;
  model: EncoderModel;
  tokenizer: Tokenizer;
  provenance?: Provenance;
}

export interface AuditOptions {
  target: AuditModel;
  /** The model before fine-tuning, for the reference-calibrated attack. */
  reference?: AuditModel;
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
  analyzer?: MorphAnalyzer;
  onProgress?: (stage: string, done: number, total: number) => void;
}

export interface PrivacyScore {
  /** 1 − top-1 accuracy at masked protected tokens. */
  score: number;
  ci: [number, number];
  occurrences: number;
  tokens: number;
  /** Share of occurrences whose every subword was predicted top-1. */
  fullyRecovered: number;
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
  loss: RocResult;
  calibrated?: RocResult;
  meanLoss: { members: number; nonMembers: number };
}

export interface AuditReport {
  createdAt: string;
  target: { name: string; provenance?: Provenance };
  reference?: { name: string };
  blacklistFingerprint: string;
  privacy: { all: PrivacyScore; direct: PrivacyScore; indirect: PrivacyScore; byCategory?: Record<string, PrivacyScore> };
  regurgitation: { rows: RegurgitationRow[]; top1Terms: number; top5Terms: number; identifiersShown: boolean };
  membership: MembershipResult;
  /** Exposure of planted secrets, in bits (see {@link secretExposure}). */
  exposure?: { probes: ExposureResult[]; mean: number; max: number };
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

function scoreOf(results: readonly OccurrenceResult[], rng: Rng): PrivacyScore {
  const tokenOutcomes = results.flatMap((r) => r.correct);
  const accuracy = tokenOutcomes.length ? tokenOutcomes.reduce((a, b) => a + b, 0) / tokenOutcomes.length : 0;
  const [lo, hi] = bootstrapMean(tokenOutcomes, rng);
  return {
    score: tokenOutcomes.length ? 1 - accuracy : NaN,
    ci: [1 - hi, 1 - lo],
    occurrences: results.length,
    tokens: tokenOutcomes.length,
    fullyRecovered: results.length ? results.filter((r) => r.correct.every((c) => c === 1)).length / results.length : 0,
  };
}

/** Mean masked-LM loss per document under fixed masks. */
async function documentLosses(model: EncoderModel, queries: readonly MaskedQuery[][], padId: number): Promise<number[]> {
  const flat = queries.flat();
  const preds = await predictMasked(model, flat, { padId, topK: 1 });
  const out: number[] = [];
  let at = 0;
  for (const doc of queries) {
    let sum = 0;
    let n = 0;
    for (let q = 0; q < doc.length; q++, at++) for (const p of preds[at]!) (sum -= p.logProb), n++;
    out.push(n ? sum / n : 0);
  }
  return out;
}

/**
 * The risk audit of a fine-tuned masked LM: privacy score on the blacklisted identifiers of the training
 * (member) documents, regurgitation per term, membership inference (loss and reference-calibrated loss)
 * on members vs non-members, and fill-mask utility on non-blacklisted tokens of non-members.
 */
export async function runAudit(options: AuditOptions): Promise<AuditReport> {
  const { target, reference, blacklist, seqLen = 128, maxOccurrences = 2000, maskProb = 0.15, seed = 7 } = options;
  const tok = target.tokenizer;
  const t = queryTokens(tok);
  const padId = tok.idOf(tok.specials.pad)!;
  const entries = blacklist.entries;
  const rng = new Rng(seed);

  const memberBodies = options.members.map((d) => tok.tokenize(d.text));
  const nonMemberBodies = options.nonMembers.map((d) => tok.tokenize(d.text));
  options.onProgress?.('matching identifiers', 0, 1);
  const memberOcc = await findOccurrences(options.members, memberBodies, entries, options.analyzer);
  const nonMemberOcc = await findOccurrences(options.nonMembers, nonMemberBodies, entries, options.analyzer);

  // Privacy score and regurgitation: each occurrence masked on its own (all its subwords).
  const sample = rng.fork(1).shuffle([...memberOcc]).slice(0, maxOccurrences);
  const queries = sample.map((o) => occurrenceQuery(memberBodies[o.doc]!, o, seqLen, t));
  const kept = sample.filter((_, i) => queries[i] !== undefined);
  options.onProgress?.('privacy score', 0, kept.length);
  const preds = await predictMasked(target.model, queries.filter((q): q is MaskedQuery => q !== undefined), { padId, topK: 5 });
  const results: OccurrenceResult[] = kept.map((occ, i) => ({
    occ,
    correct: preds[i]!.map((p) => (p.top[0] === p.label ? 1 : 0)),
    top5: preds[i]!.every((p) => p.top.includes(p.label)),
  }));
  const ofKind = (kind: string) => results.filter((r) => entries[r.occ.entry]!.kind === kind);
  const privacy: AuditReport['privacy'] = { all: scoreOf(results, rng.fork(2)), direct: scoreOf(ofKind('direct'), rng.fork(3)), indirect: scoreOf(ofKind('indirect'), rng.fork(4)) };
  if (options.reportCategories?.length) {
    // Category occurrences are evaluated in full, not sampled: they are few, and the control must not be missed.
    const chosen = new Set(options.reportCategories);
    const sampled = new Set(kept);
    const extra = memberOcc.filter((o) => chosen.has(entries[o.entry]!.category) && !sampled.has(o));
    const extraQueries = extra.map((o) => occurrenceQuery(memberBodies[o.doc]!, o, seqLen, t));
    const extraKept = extra.filter((_, i) => extraQueries[i] !== undefined);
    const extraPreds = await predictMasked(target.model, extraQueries.filter((q): q is MaskedQuery => q !== undefined), { padId, topK: 5 });
    const all = [...results, ...extraKept.map((occ, i) => ({ occ, correct: extraPreds[i]!.map((p) => (p.top[0] === p.label ? 1 : 0)), top5: extraPreds[i]!.every((p) => p.top.includes(p.label)) }))];
    privacy.byCategory = Object.fromEntries(options.reportCategories.map((c, i) => [c, scoreOf(all.filter((r) => entries[r.occ.entry]!.category === c), rng.fork(10 + i))]));
  }

  const salt = randomBytes(16);
  const label = (term: string) => (options.showIdentifiers ? term : `id-${createHash('sha256').update(salt).update(term).digest('hex').slice(0, 10)}`);
  const trainingCounts = new Map<number, number>();
  for (const o of memberOcc) trainingCounts.set(o.entry, (trainingCounts.get(o.entry) ?? 0) + 1);
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

  // Membership inference with paired, fixed masks.
  options.onProgress?.('membership inference', 0, options.members.length + options.nonMembers.length);
  const protectedSet = (occ: Occurrence[], d: number) => new Set(occ.filter((o) => o.doc === d).flatMap((o) => o.tokens));
  const memberQ = memberBodies.map((b, d) => documentQueries(b, new Set(), seqLen, maskProb, seed * 7919 + d, t));
  const nonMemberQ = nonMemberBodies.map((b, d) => documentQueries(b, new Set(), seqLen, maskProb, seed * 104729 + d, t));
  const targetLoss = { m: await documentLosses(target.model, memberQ, padId), n: await documentLosses(target.model, nonMemberQ, padId) };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const membership: MembershipResult = {
    members: options.members.length,
    nonMembers: options.nonMembers.length,
    loss: roc(targetLoss.m.map((l) => -l), targetLoss.n.map((l) => -l), "the loss attack's scores (the target model's losses)"),
    meanLoss: { members: mean(targetLoss.m), nonMembers: mean(targetLoss.n) },
  };
  let referenceUtility: number | undefined;
  if (reference) {
    const refLoss = { m: await documentLosses(reference.model, memberQ, padId), n: await documentLosses(reference.model, nonMemberQ, padId) };
    membership.calibrated = roc(targetLoss.m.map((l, i) => refLoss.m[i]! - l), targetLoss.n.map((l, i) => refLoss.n[i]! - l), "the calibrated attack's scores (reference minus target losses)");
  }

  // Utility: fill-mask on non-blacklisted tokens of non-members.
  options.onProgress?.('utility', 0, options.nonMembers.length);
  const utilityQ = nonMemberBodies.flatMap((b, d) => documentQueries(b, protectedSet(nonMemberOcc, d), seqLen, maskProb, seed * 15485863 + d, t));
  const accuracyOf = async (model: EncoderModel) => {
    const p = (await predictMasked(model, utilityQ, { padId, topK: 1 })).flat();
    return { accuracy: p.filter((x) => x.top[0] === x.label).length / Math.max(1, p.length), positions: p.length };
  };
  const utility = await accuracyOf(target.model);
  if (reference) referenceUtility = (await accuracyOf(reference.model)).accuracy;
  const unigram = mostFrequentToken(memberBodies, new Set(tok.specialIds));
  const labels = utilityQ.flatMap((q) => q.labels);
  const unigramBaseline = labels.filter((l) => l === unigram).length / Math.max(1, labels.length);

  let exposure: AuditReport['exposure'];
  if (options.exposure?.length) {
    options.onProgress?.('exposure', 0, options.exposure.length);
    const probes = await secretExposure(target.model, tok, options.exposure, { seqLen, padId });
    exposure = { probes, mean: mean(probes.map((p) => p.exposure)), max: Math.max(...probes.map((p) => p.exposure)) };
  }

  return {
    createdAt: new Date().toISOString(),
    target: { name: target.name, ...(target.provenance && { provenance: target.provenance }) },
    ...(reference && { reference: { name: reference.name } }),
    blacklistFingerprint: blacklistFingerprint(blacklist),
    privacy,
    regurgitation: { rows, top1Terms: rows.filter((r) => r.top1 > 0).length, top5Terms: rows.filter((r) => r.top5 > 0).length, identifiersShown: options.showIdentifiers === true },
    membership,
    ...(exposure && { exposure }),
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
