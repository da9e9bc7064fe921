import type { Cluster } from '../audit/metrics.js';
import { logGamma } from '../privacy/accountants/rdpMath.js';
import type { ReviewMarks } from './marks.js';
import type { ReviewSample } from './sample.js';

const Z95 = 1.959963984540054;

/** A ratio estimated from the reviewed sample, its 95% interval, the count it is out of, and the individuals behind it. */
export interface ReviewFigure {
  value: number;
  interval: [number, number];
  /** The denominator in the sample: identifiers, detections, words or word characters. */
  n: number;
  /** The individuals (clusters) it rests on. */
  individuals: number;
}

export interface ReviewEstimate {
  /** Passages reviewed, of the sample's. */
  reviewed: number;
  sampled: number;
  individuals: number;
  words: number;
  /** Identifier occurrences the reviewer found, and how many of them the blacklist left unprotected. */
  identifiers: number;
  missed: number;
  /** Missed identifier occurrences / all identifier occurrences. */
  missRate: ReviewFigure;
  /** Missed identifier occurrences per 1,000 words. */
  missedPer1000Words: ReviewFigure;
  /** Direct detections that the reviewer left as identifiers / direct detections. */
  directPrecision: ReviewFigure;
  /** Protected word characters outside every identifier / word characters outside every identifier. */
  otherTextProtected: ReviewFigure;
}

/** Student's t quantile at 0.975 by its Cornish-Fisher expansion around the normal one (error < 0.01 from 3 df on). */
function t975(df: number): number {
  const z = Z95;
  if (!Number.isFinite(df) || df <= 0) return Infinity;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3);
}

/** The regularised incomplete beta function I_x(a, b), by Lentz's continued fraction (Press et al., §6.4). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // The fraction converges fast for x < (a + 1) / (a + b + 2); the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) covers the rest.
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const front = Math.exp(a * Math.log(x) + b * Math.log(1 - x) - (logGamma(a) + logGamma(b) - logGamma(a + b))) / a;
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let f = d;
  for (let m = 1; m <= 300; m++) {
    for (const numerator of [(m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)), (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))]) {
      d = 1 + numerator * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + numerator / c;
      if (Math.abs(c) < tiny) c = tiny;
      f *= c * d;
    }
    if (Math.abs(c * d - 1) < 1e-12) break;
  }
  return front * f;
}

/** The q-quantile of Beta(a, b), by bisection on {@link incompleteBeta}. */
function betaQuantile(q: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (incompleteBeta(mid, a, b) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The shortest interval holding 95% of Jeffreys' posterior of a proportion k/n, Beta(k + ½, n − k + ½) (its
 * highest-density interval). Jeffreys' equal-tailed interval keeps coverage near 95% where Wilson's
 * overshoots at small k (Brown, Cai and DasGupta 2001); where misses are rare the posterior is skewed and
 * equal tails waste width: at k = 0 this interval is [0, 95% quantile], not [0, 97.5% quantile]. For a
 * symmetric posterior the two are the same; k and n may be fractional.
 */
export function jeffreysShortestInterval(k: number, n: number): [number, number] {
  if (n <= 0) return [NaN, NaN];
  const a = k + 0.5;
  const b = n - k + 0.5;
  // A density that only falls (or only rises) puts the interval against 0 (or 1).
  if (a <= 1) return [0, betaQuantile(0.95, a, b)];
  if (b <= 1) return [betaQuantile(0.05, a, b), 1];
  // Unimodal: the width is convex in the lower tail's mass, which a golden-section search minimises.
  const width = (t: number) => betaQuantile(t + 0.95, a, b) - betaQuantile(t, a, b);
  const g = (Math.sqrt(5) - 1) / 2;
  let lo = 0;
  let hi = 0.05;
  let x1 = hi - g * (hi - lo);
  let x2 = lo + g * (hi - lo);
  let w1 = width(x1);
  let w2 = width(x2);
  for (let i = 0; i < 40; i++) {
    if (w1 < w2) {
      hi = x2;
      x2 = x1;
      w2 = w1;
      x1 = hi - g * (hi - lo);
      w1 = width(x1);
    } else {
      lo = x1;
      x1 = x2;
      w1 = w2;
      x2 = lo + g * (hi - lo);
      w2 = width(x2);
    }
  }
  const t = (lo + hi) / 2;
  return [betaQuantile(t, a, b), betaQuantile(t + 0.95, a, b)];
}

/**
 * The 95% interval of a proportion Σnum / Σden estimated from a self-weighting sample of clusters
 * (individuals), by Korn and Graubard's effective sample size (1998): the ratio's design-based variance
 * (Taylor linearisation over clusters, as survey software computes it) gives the design effect, the count
 * shrinks by it and again for the clusters' degrees of freedom (t with C − 1 df against z), and the
 * shortest Jeffreys interval ({@link jeffreysShortestInterval}) is taken at that effective count. It does not collapse at 0 or 1, where a bootstrap over
 * clusters does, and widens as much as clustering demands, where a plain binomial interval does not.
 */
export function designProportionInterval(clusters: readonly Cluster[]): [number, number] {
  const num = clusters.reduce((s, c) => s + c.num, 0);
  const den = clusters.reduce((s, c) => s + c.den, 0);
  if (den === 0) return [NaN, NaN];
  const p = num / den;
  const c = clusters.length;
  let effective = den;
  if (c > 1 && p > 0 && p < 1) {
    const spread = clusters.reduce((s, k) => s + (k.num - p * k.den) ** 2, 0);
    const variance = ((c / (c - 1)) * spread) / den ** 2;
    effective = Math.min(den, variance > 0 ? (p * (1 - p)) / variance : den);
  }
  if (c > 1) effective *= (Z95 / t975(c - 1)) ** 2;
  return jeffreysShortestInterval(p * effective, effective);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Protected identifier occurrences among spans judged identifiers: spans that overlap, or that no word
 * separates ("Frances" and "Baker" of "Frances Baker", a date matched by two terms), are one occurrence, as
 * a reviewer reads them and as gold spans mark them.
 */
export function protectedIdentifiers(text: string, spans: readonly { start: number; end: number }[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let count = 0;
  let end = -1;
  for (const s of sorted) {
    if (end < 0 || (s.start > end && WORD_CHAR.test(text.slice(end, s.start)))) count++;
    end = Math.max(end, s.end);
  }
  return count;
}

/** Per individual: the sums every figure is a ratio of. */
interface Tally {
  missed: number;
  identifiers: number;
  words: number;
  direct: number;
  directTrue: number;
  otherChars: number;
  otherProtected: number;
}

/** The figures an estimate reports, each a ratio Σnum / Σden over individuals. */
export const REVIEW_FIGURES = ['missRate', 'missedPer1000Words', 'directPrecision', 'otherTextProtected'] as const;
export type ReviewFigureName = (typeof REVIEW_FIGURES)[number];

const RATIOS: Record<ReviewFigureName, { num: (t: Tally) => number; den: (t: Tally) => number; scale: number }> = {
  missRate: { num: (t) => t.missed, den: (t) => t.identifiers, scale: 1 },
  missedPer1000Words: { num: (t) => t.missed, den: (t) => t.words, scale: 1000 },
  directPrecision: { num: (t) => t.directTrue, den: (t) => t.direct, scale: 1 },
  otherTextProtected: { num: (t) => t.otherProtected, den: (t) => t.otherChars, scale: 1 },
};

/**
 * The tallies of each individual's reviewed passages. An identifier occurrence is a missed mark, or a
 * protected span judged an identifier that no missed mark overlaps (a name half protected and marked
 * missed counts once, as missed).
 */
function tallyByIndividual(sample: ReviewSample, marks: ReviewMarks): Tally[] {
  const tallies = new Map<string, Tally>();
  marks.items.forEach((m, i) => {
    if (!m.reviewed) return;
    const item = sample.items[i]!;
    const t = tallies.get(item.individual) ?? { missed: 0, identifiers: 0, words: 0, direct: 0, directTrue: 0, otherChars: 0, otherProtected: 0 };
    t.words += item.words;
    t.missed += m.missed.length;
    const overlapsMissed = (s: { start: number; end: number }) => m.missed.some((x) => x.start < s.end && x.end > s.start);
    t.identifiers += m.missed.length + protectedIdentifiers(item.text, item.spans.filter((s, j) => m.spans[j] === 'identifier' && !overlapsMissed(s)));
    item.spans.forEach((s, j) => {
      if (s.kind !== 'direct') return;
      t.direct++;
      if (m.spans[j] === 'identifier') t.directTrue++;
    });
    const identifier = new Uint8Array(item.text.length);
    const covered = new Uint8Array(item.text.length);
    for (const x of m.missed) identifier.fill(1, x.start, x.end);
    item.spans.forEach((s, j) => (m.spans[j] === 'identifier' ? identifier : covered).fill(1, s.start, s.end));
    for (let c = 0; c < item.text.length; c++) {
      if (identifier[c] || !WORD_CHAR.test(item.text[c]!)) continue;
      t.otherChars++;
      if (covered[c]) t.otherProtected++;
    }
    tallies.set(item.individual, t);
  });
  return [...tallies.values()];
}

/**
 * One figure's clusters (individuals with a non-zero denominator) and the scale of its value: what its
 * interval rests on, and what another interval (a bootstrap, in the coverage bench) can be compared on.
 */
export function reviewClusters(sample: ReviewSample, marks: ReviewMarks, figure: ReviewFigureName): { clusters: Cluster[]; scale: number } {
  const { num, den, scale } = RATIOS[figure];
  return { clusters: tallyByIndividual(sample, marks).map((t) => ({ num: num(t), den: den(t) })).filter((c) => c.den > 0), scale };
}

/**
 * The figures of a reviewed sample (see {@link tallyByIndividual} for what counts). Only reviewed items
 * count; the sample weighs itself (every passage had the same chance), so the ratios need no weights, and
 * each interval treats the individual as the cluster.
 */
export function estimateReview(sample: ReviewSample, marks: ReviewMarks): ReviewEstimate {
  const all = tallyByIndividual(sample, marks);
  const figure = (name: ReviewFigureName): ReviewFigure => {
    const { num, den, scale } = RATIOS[name];
    const clusters = all.map((t) => ({ num: num(t), den: den(t) })).filter((c) => c.den > 0);
    const n = clusters.reduce((s, c) => s + c.den, 0);
    const value = n === 0 ? NaN : clusters.reduce((s, c) => s + c.num, 0) / n;
    const [lo, hi] = designProportionInterval(clusters);
    return { value: value * scale, interval: [lo * scale, hi * scale], n, individuals: clusters.length };
  };
  const sum = (f: (t: Tally) => number) => all.reduce((s, t) => s + f(t), 0);
  return {
    reviewed: marks.items.filter((m) => m.reviewed).length,
    sampled: sample.items.length,
    individuals: all.length,
    words: sum((t) => t.words),
    identifiers: sum((t) => t.identifiers),
    missed: sum((t) => t.missed),
    missRate: figure('missRate'),
    missedPer1000Words: figure('missedPer1000Words'),
    directPrecision: figure('directPrecision'),
    otherTextProtected: figure('otherTextProtected'),
  };
}
