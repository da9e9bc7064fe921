import { Rng } from '../engine/random.js';
import type { Encoding } from '../tokenizer/index.js';
import type { MaskedQuery, PositionPrediction } from './inference.js';
import { liraScores, rocWithInterval, type RocWithInterval, type ScoredUnit } from './metrics.js';
import { documentQueries, occurrenceQuery, windowAround, type DocumentQueries, type QueryTokens } from './queries.js';

/** A model as membership inference sees it: masked queries in, per-position predictions out. */
export type Scorer = (queries: readonly MaskedQuery[]) => Promise<PositionPrediction[][]>;

/** A reference model for LiRA, and the documents it trained on (never used as its out-examples). */
export interface ReferenceScorer {
  scorer: Scorer;
  trainedOn?: ReadonlySet<string>;
}

/** A document under attack: its tokens, its protected positions and occurrences, and whose it is. */
export interface MembershipDocument {
  id: string;
  author: string;
  body: Encoding;
  protectedMask: Uint8Array;
  /** Token positions of each protected occurrence (masked whole by the protected queries). */
  occurrences: readonly (readonly number[])[];
}

/** The three views of membership: every position, the positions constrained training may learn, and the protected ones. */
export const VARIANTS = ['all', 'unprotected', 'protected'] as const;
export type Variant = (typeof VARIANTS)[number];

/** The attacks on one variant at one level (documents or individuals). */
export interface MembershipVariant {
  members: number;
  nonMembers: number;
  /** The target's mean log-likelihood at the masked positions. */
  loss: RocWithInterval;
  /** Target minus reference (`--reference`) mean log-likelihood. */
  calibrated?: RocWithInterval;
  /** Pseudo-log-likelihood ratio target vs reference, each position (occurrence) masked alone (Mireshghallah et al. 2022). */
  pllRatio?: RocWithInterval;
  /** Offline LiRA against the reference models (Carlini et al. 2022). */
  lira?: RocWithInterval;
  /** Why LiRA is missing although reference models were given. */
  liraMissing?: string;
}

export type MembershipLevel = Partial<Record<Variant, MembershipVariant>>;

export interface MembershipOptions {
  seqLen: number;
  maskProb: number;
  seed: number;
  /** Positions (and occurrences) per document scored alone for the PLL ratio (0: no PLL attack). */
  pllSamples: number;
  tokens: QueryTokens;
  /** Bootstrap iterations of the intervals. */
  iterations?: number;
}

/** Sum of log-likelihoods and count of scored positions, plus top-1 hits (for utility). */
interface Tally {
  logProb: number;
  n: number;
  correct: number;
}

/** What the tallies separate: the fixed masks' unprotected and protected positions, and the PLL's samples. */
const TALLIES = ['unprotected', 'protected', 'protectedExtra', 'pllUnprotected', 'pllProtected', 'pllAll'] as const;
type DocTallies = Record<(typeof TALLIES)[number], Tally>;

/** A document's queries: fixed masks (one per window) with the kind of each asked position, and the PLL's one-at-a-time samples. */
interface DocQueries {
  fixed: DocumentQueries;
  pllUnprotected: MaskedQuery[];
  pllProtected: MaskedQuery[];
  /** Tokens drawn uniformly from the whole document, a protected one asked with its occurrence whole. */
  pllAll: MaskedQuery[];
}

function queriesOf(doc: MembershipDocument, docSeed: number, options: MembershipOptions): DocQueries {
  const { seqLen, maskProb, pllSamples, tokens: t } = options;
  const fixed = documentQueries(doc.body, doc.protectedMask, doc.occurrences, seqLen, maskProb, docSeed, t);
  const rng = new Rng(docSeed ^ 0x5bd1e995);
  const open = doc.body.ids.map((_, i) => i).filter((i) => !doc.protectedMask[i] && !doc.body.special[i]);
  const single = (i: number): MaskedQuery => {
    const { ids, offset } = windowAround(doc.body, i, i, seqLen, t);
    ids[i - offset] = t.mask;
    return { ids, positions: [i - offset], labels: [doc.body.ids[i]!] };
  };
  const pllUnprotected = rng.shuffle([...open]).slice(0, pllSamples).map(single);
  const whole = (tokens: readonly number[]) => occurrenceQuery(doc.body, { doc: 0, entry: 0, tokens: [...tokens] }, seqLen, t);
  const pllProtected = rng
    .shuffle([...doc.occurrences])
    .slice(0, pllSamples)
    .map(whole)
    .filter((q): q is MaskedQuery => q !== undefined);
  const tokens = doc.body.ids.map((_, i) => i).filter((i) => !doc.body.special[i]);
  const pllAll = rng
    .shuffle(tokens)
    .slice(0, pllSamples)
    .map((i) => (doc.protectedMask[i] ? whole(doc.occurrences.find((o) => o.includes(i)) ?? [i]) : single(i)))
    .filter((q): q is MaskedQuery => q !== undefined);
  return { fixed, pllUnprotected, pllProtected, pllAll };
}

/** Runs every document's queries through one model in one batch and tallies the predictions per document. */
async function tally(queries: readonly DocQueries[], scorer: Scorer): Promise<DocTallies[]> {
  const flat = queries.flatMap((q) => [...q.fixed.queries, ...q.pllUnprotected, ...q.pllProtected, ...q.pllAll]);
  const preds = await scorer(flat);
  let at = 0;
  const count = (t: Tally, p: PositionPrediction) => {
    t.logProb += p.logProb;
    t.n++;
    if (p.top[0] === p.label) t.correct++;
  };
  return queries.map((q) => {
    const out = Object.fromEntries(TALLIES.map((k) => [k, { logProb: 0, n: 0, correct: 0 }])) as DocTallies;
    q.fixed.queries.forEach((_, i) => preds[at++]!.forEach((p, k) => count(out[q.fixed.kinds[i]![k]!], p)));
    for (const k of ['pllUnprotected', 'pllProtected', 'pllAll'] as const) for (let i = 0; i < q[k].length; i++) for (const p of preds[at++]!) count(out[k], p);
    return out;
  });
}

const add = (a: Tally, b: Tally): Tally => ({ logProb: a.logProb + b.logProb, n: a.n + b.n, correct: a.correct + b.correct });
const ZERO: Tally = { logProb: 0, n: 0, correct: 0 };

/**
 * The tallies of a variant. `all` pools the unprotected and the drawn protected positions (one rate for every
 * token; for the PLL, tokens drawn from the whole document); `protected` adds the occurrences asked only so
 * that each window with one has one.
 */
function variantTally(d: DocTallies, v: Variant, pll: boolean): Tally {
  if (pll) return v === 'unprotected' ? d.pllUnprotected : v === 'protected' ? d.pllProtected : d.pllAll;
  return v === 'unprotected' ? d.unprotected : v === 'protected' ? add(d.protected, d.protectedExtra) : add(d.unprotected, d.protected);
}

/** Per-document tallies of the target, the calibration reference and the LiRA references. */
export interface MembershipTallies {
  target: DocTallies[];
  reference?: DocTallies[];
  references: DocTallies[][];
}

/** Scores every document with every model once (the expensive part); attacks are computed from the tallies. */
export async function membershipTallies(docs: readonly MembershipDocument[], seedBase: number, models: { target: Scorer; reference?: Scorer; references?: readonly ReferenceScorer[] }, options: MembershipOptions): Promise<{ tallies: MembershipTallies; queries: DocQueries[] }> {
  const queries = docs.map((d, i) => queriesOf(d, seedBase + i, options));
  const target = await tally(queries, models.target);
  const reference = models.reference && (await tally(queries, models.reference));
  const references: DocTallies[][] = [];
  // One model at a time: each scoring holds its batch's activations.
  for (const r of models.references ?? []) references.push(await tally(queries, r.scorer));
  return { queries, tallies: { target, ...(reference && { reference }), references } };
}

/** The unit (document or individual) an attack scores, with the tallies it sums. */
interface Unit {
  individual: string;
  docs: number[];
}

function unitsOf(docs: readonly MembershipDocument[], level: 'document' | 'individual'): Unit[] {
  if (level === 'document') return docs.map((d, i) => ({ individual: d.author, docs: [i] }));
  const byAuthor = new Map<string, number[]>();
  docs.forEach((d, i) => byAuthor.set(d.author, [...(byAuthor.get(d.author) ?? []), i]));
  return [...byAuthor].map(([individual, ds]) => ({ individual, docs: ds }));
}

const mean = (t: Tally) => t.logProb / t.n;

/** Every attack's score of each unit in one variant; undefined where the unit has no position of that variant. */
function unitScores(units: readonly Unit[], docs: readonly MembershipDocument[], tallies: MembershipTallies, refs: readonly ReferenceScorer[], v: Variant) {
  const sum = (t: DocTallies[], u: Unit, pll: boolean) => u.docs.reduce((acc, d) => add(acc, variantTally(t[d]!, v, pll)), ZERO);
  return units.flatMap((u) => {
    const target = sum(tallies.target, u, false);
    if (target.n === 0) return [];
    const reference = tallies.reference && sum(tallies.reference, u, false);
    const pllTarget = sum(tallies.target, u, true);
    const pllRef = tallies.reference && sum(tallies.reference, u, true);
    const ids = u.docs.map((d) => docs[d]!.id);
    const outRefs = tallies.references.filter((_, r) => !ids.some((id) => refs[r]!.trainedOn?.has(id)));
    return [{
      individual: u.individual,
      loss: mean(target),
      calibrated: reference ? mean(target) - mean(reference) : undefined,
      pllRatio: pllRef && pllTarget.n > 0 ? mean(pllTarget) - mean(pllRef) : undefined,
      lira: outRefs.map((t) => mean(sum(t, u, false))),
    }];
  });
}

type Scores = ReturnType<typeof unitScores>[number];

/** One attack's ROC with intervals, or undefined when some unit lacks the attack's score. */
function attack(m: readonly Scores[], n: readonly Scores[], score: (s: Scores) => number | undefined, rng: Rng, source: string, iterations?: number): RocWithInterval | undefined {
  const units = (xs: readonly Scores[]) => xs.map((s) => ({ individual: s.individual, score: score(s) }));
  const mu = units(m);
  const nu = units(n);
  if ([...mu, ...nu].some((u) => u.score === undefined)) return undefined;
  return rocWithInterval(mu as ScoredUnit[], nu as ScoredUnit[], rng, source, iterations);
}

/**
 * Membership inference at one level (each document, or each individual pooling their documents), in the
 * three variants. Scores are "higher = member": mean log-likelihood (loss attack), minus the reference's
 * (calibrated), the same over one-at-a-time masks (PLL ratio), and LiRA's standardised confidence.
 */
export function membershipLevel(members: { docs: readonly MembershipDocument[]; tallies: MembershipTallies }, nonMembers: { docs: readonly MembershipDocument[]; tallies: MembershipTallies }, refs: readonly ReferenceScorer[], level: 'document' | 'individual', seed: number, iterations?: number): MembershipLevel {
  const out: MembershipLevel = {};
  VARIANTS.forEach((v, vi) => {
    const m = unitScores(unitsOf(members.docs, level), members.docs, members.tallies, refs, v);
    const n = unitScores(unitsOf(nonMembers.docs, level), nonMembers.docs, nonMembers.tallies, refs, v);
    if (m.length === 0 || n.length === 0) return;
    const rng = (k: number) => new Rng(seed * 31 + vi * 7 + k);
    const what = `${level} ${v}`;
    const all = [...m, ...n];
    // LiRA fits each unit's out-distribution: a unit with fewer than 2 out-references (its id among a
    // reference's training documents, e.g. colliding ids) leaves the attack undefined, and the report says so.
    const short = refs.length > 0 ? all.filter((s) => s.lira.length < 2).length : 0;
    const lira = refs.length > 0 && short === 0 ? liraScores(all.map((s) => s.loss), all.map((s) => s.lira)) : undefined;
    const liraMissing = short > 0 ? `${short} of ${all.length} ${level === 'document' ? 'documents' : 'individuals'} have fewer than 2 reference models that did not train on them (a reference trained on a document with the same id counts as trained on it); give references trained without them, or documents unique ids` : undefined;
    const liraOf = new Map(all.map((s, i) => [s, lira?.[i]]));
    const variant: MembershipVariant = { members: m.length, nonMembers: n.length, loss: attack(m, n, (s) => s.loss, rng(1), `the loss attack's scores (${what})`, iterations)! };
    const calibrated = attack(m, n, (s) => s.calibrated, rng(2), `the calibrated attack's scores (${what})`, iterations);
    const pllRatio = attack(m, n, (s) => s.pllRatio, rng(3), `the PLL ratio attack's scores (${what})`, iterations);
    const liraResult = lira && attack(m, n, (s) => liraOf.get(s), rng(4), `LiRA's scores (${what})`, iterations);
    out[v] = { ...variant, ...(calibrated && { calibrated }), ...(pllRatio && { pllRatio }), ...(liraResult && { lira: liraResult }), ...(liraMissing && { liraMissing }) };
  });
  return out;
}

/** Utility from the non-members' unprotected fixed masks: top-1 hits over positions. */
export function fillMaskAccuracy(tallies: readonly DocTallies[]): { accuracy: number; positions: number } {
  const t = tallies.reduce((acc, d) => add(acc, d.unprotected), ZERO);
  return { accuracy: t.correct / Math.max(1, t.n), positions: t.n };
}

/** Mean per-document loss (negative mean log-likelihood) over all fixed-mask positions. */
export function meanDocumentLoss(tallies: readonly DocTallies[]): number {
  const losses = tallies.map((d) => variantTally(d, 'all', false)).filter((t) => t.n > 0).map((t) => -mean(t));
  return losses.reduce((a, b) => a + b, 0) / Math.max(1, losses.length);
}
