import { assertNoNaN } from '../model/index.js';

/** ROC analysis for membership inference: higher score = "member". */
export interface RocResult {
  auc: number;
  /** TPR at the largest threshold whose FPR is at most each target (0.01, 0.001). */
  tprAt1: number;
  tprAt01: number;
  /** Points (fpr, tpr) from (0,0) to (1,1). */
  curve: [number, number][];
}

/**
 * ROC curve, AUC (ties count half, as the Mann-Whitney statistic) and TPR at fixed FPR. TPR at an FPR
 * below 1/negatives is reported as measured (usually 0): such a threshold is not meaningful. A NaN score is
 * a FormatError naming `source` (NaN equals nothing, so ties could never be grouped); ±Infinity sorts.
 */
export function roc(memberScores: readonly number[], nonMemberScores: readonly number[], source = 'ROC scores'): RocResult {
  const P = memberScores.length;
  const N = nonMemberScores.length;
  if (P === 0 || N === 0) throw new RangeError('ROC needs at least one member and one non-member');
  assertNoNaN(memberScores, `${source} (members)`);
  assertNoNaN(nonMemberScores, `${source} (non-members)`);
  const all = [...memberScores.map((s) => [s, 1] as const), ...nonMemberScores.map((s) => [s, 0] as const)].sort((a, b) => b[0] - a[0]);
  const curve: [number, number][] = [[0, 0]];
  let tp = 0;
  let fp = 0;
  // Counted in half pairs, divided once: a sum of fractions drifts past 1 (1.0000000000000002).
  let pairs = 0;
  for (let i = 0; i < all.length; ) {
    let dtp = 0;
    let dfp = 0;
    const s = all[i]![0];
    while (i < all.length && all[i]![0] === s) {
      if (all[i]![1] === 1) dtp++;
      else dfp++;
      i++;
    }
    pairs += dfp * (2 * tp + dtp);
    tp += dtp;
    fp += dfp;
    curve.push([fp / N, tp / P]);
  }
  const tprAt = (maxFpr: number) => curve.filter(([f]) => f <= maxFpr + 1e-12).reduce((best, [, t]) => Math.max(best, t), 0);
  return { auc: pairs / (2 * P * N), tprAt1: tprAt(0.01), tprAt01: tprAt(0.001), curve };
}

/** The central `level` percentile interval of bootstrap statistics (sorted in place). */
function percentileInterval(stats: number[], level: number): [number, number] {
  if (stats.length === 0) return [NaN, NaN];
  stats.sort((a, b) => a - b);
  const n = stats.length;
  return [stats[Math.floor(((1 - level) / 2) * n)]!, stats[Math.min(n - 1, Math.ceil(((1 + level) / 2) * n) - 1)]!];
}

/** Percentile bootstrap interval of the mean of 0/1 (or real) outcomes, seeded. */
export function bootstrapMean(values: readonly number[], rng: { int(n: number): number }, iterations = 1000, level = 0.95): [number, number] {
  return clusterBootstrap(values.map((v) => ({ num: v, den: 1 })), rng, iterations, level);
}

/** One individual's share of a ratio: e.g. occurrences recovered (num) out of occurrences evaluated (den). */
export interface Cluster {
  num: number;
  den: number;
}

/**
 * Percentile bootstrap interval of a ratio Σnum / Σden that resamples whole clusters (individuals) with
 * replacement: outcomes of one person move together (their name recurs in their notes), so resampling
 * single outcomes would make the interval too narrow. Seeded; draws whose Σden is 0 are skipped.
 */
export function clusterBootstrap(clusters: readonly Cluster[], rng: { int(n: number): number }, iterations = 1000, level = 0.95): [number, number] {
  if (clusters.length === 0) return [NaN, NaN];
  const stats: number[] = [];
  for (let b = 0; b < iterations; b++) {
    let num = 0;
    let den = 0;
    for (let i = 0; i < clusters.length; i++) {
      const c = clusters[rng.int(clusters.length)]!;
      num += c.num;
      den += c.den;
    }
    if (den > 0) stats.push(num / den);
  }
  return percentileInterval(stats, level);
}

const Z95 = 1.959963984540054;

/**
 * Wilson's score interval of a proportion k/n. Unlike a percentile bootstrap it does not collapse at 0 or
 * n: 0 of 21 gives [0, 0.155], not [0, 0].
 *
 * @example
 * wilsonInterval(0, 21); // [0, 0.155]
 */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] {
  if (n <= 0) return [NaN, NaN];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * A score interval for an AUC (the Mann-Whitney probability) from `members` and `nonMembers` units:
 * Newcombe's (2006) method 5, which solves |AUC − θ| = z·√V(θ) with the Hanley-McNeil variance taken at θ,
 * not at the estimate. DeLong's and Hanley-McNeil's own intervals have zero width at AUC 0 or 1; this one
 * does not (7 members against 20 non-members separated perfectly: [0.80, 1]). Units are taken as
 * independent: documents of one person are not, which the bootstrap over individuals accounts for.
 */
export function aucScoreInterval(auc: number, members: number, nonMembers: number, z = Z95): [number, number] {
  if (members <= 0 || nonMembers <= 0 || !Number.isFinite(auc)) return [NaN, NaN];
  const half = (members + nonMembers) / 2;
  const variance = (t: number) => ((t * (1 - t)) / (members * nonMembers)) * (2 * half - 1 - (3 * half - 3) / ((2 - t) * (1 + t)));
  // Outside the interval (AUC − θ)² exceeds z²·V(θ); each bound is the one crossing on its side.
  const outside = (t: number) => (auc - t) ** 2 > z * z * variance(t);
  const bound = (inside: number, out: number) => {
    let [a, b] = [inside, out];
    for (let i = 0; i < 60; i++) {
      const mid = (a + b) / 2;
      if (outside(mid)) b = mid;
      else a = mid;
    }
    return a;
  };
  return [auc <= 0 ? 0 : bound(auc, 0), auc >= 1 ? 1 : bound(auc, 1)];
}

/**
 * The 95% interval of a ratio Σnum / Σden over individuals: the hull of the bootstrap that resamples
 * individuals ({@link clusterBootstrap}) and Wilson's interval on the pooled counts, which stays open when
 * every individual's ratio is 0 or 1 (where the bootstrap collapses to a point).
 */
export function clusteredProportionInterval(clusters: readonly Cluster[], rng: { int(n: number): number }, iterations = 1000): [number, number] {
  const num = clusters.reduce((s, c) => s + c.num, 0);
  const den = clusters.reduce((s, c) => s + c.den, 0);
  if (den === 0) return [NaN, NaN];
  return hull(clusterBootstrap(clusters, rng, iterations), wilsonInterval(num, den));
}

/** The smallest interval holding both: a bootstrap's and an analytic one's, each honest where the other is not. */
const hull = (a: [number, number], b: [number, number]): [number, number] => [Math.min(a[0], b[0]), Math.max(a[1], b[1])];

/** A scored unit of membership inference (document or individual) and the individual it belongs to. */
export interface ScoredUnit {
  individual: string;
  score: number;
}

/** A ROC analysis with 95% intervals, and the counts they rest on. */
export interface RocWithInterval extends RocResult {
  /**
   * Each the hull of a bootstrap over individuals (documents of one person move together) and an analytic
   * interval that stays honest at 0 and 1 (Newcombe's score interval for the AUC, Wilson's for the TPR,
   * given the threshold).
   */
  ci: { auc: [number, number]; tprAt1: [number, number]; tprAt01: [number, number] };
  /** Units (documents or individuals) and the individuals they belong to, on each side. */
  n: { members: number; nonMembers: number; memberIndividuals: number; nonMemberIndividuals: number };
}

/**
 * {@link roc} with intervals: a stratified bootstrap over individuals (member and non-member individuals
 * resampled with replacement, each bringing all of its units, so documents of one person never count as
 * independent evidence), widened where needed to the analytic intervals, which a percentile bootstrap
 * cannot reach at 0 and 1 (every resample of a perfect separation is perfect).
 */
export function rocWithInterval(members: readonly ScoredUnit[], nonMembers: readonly ScoredUnit[], rng: { int(n: number): number }, source: string, iterations = 200, level = 0.95): RocWithInterval {
  const result = roc(members.map((u) => u.score), nonMembers.map((u) => u.score), source);
  const byIndividual = (units: readonly ScoredUnit[]) => {
    const groups = new Map<string, number[]>();
    for (const u of units) groups.set(u.individual, [...(groups.get(u.individual) ?? []), u.score]);
    return [...groups.values()];
  };
  const m = byIndividual(members);
  const n = byIndividual(nonMembers);
  const draw = (groups: number[][]) => groups.flatMap(() => groups[rng.int(groups.length)]!);
  const auc: number[] = [];
  const tprAt1: number[] = [];
  const tprAt01: number[] = [];
  for (let b = 0; b < iterations; b++) {
    const r = roc(draw(m), draw(n), source);
    auc.push(r.auc);
    tprAt1.push(r.tprAt1);
    tprAt01.push(r.tprAt01);
  }
  const P = members.length;
  const z = normalQuantile((1 + level) / 2);
  return {
    ...result,
    ci: {
      auc: hull(percentileInterval(auc, level), aucScoreInterval(result.auc, P, nonMembers.length, z)),
      tprAt1: hull(percentileInterval(tprAt1, level), wilsonInterval(Math.round(result.tprAt1 * P), P, z)),
      tprAt01: hull(percentileInterval(tprAt01, level), wilsonInterval(Math.round(result.tprAt01 * P), P, z)),
    },
    n: { members: P, nonMembers: nonMembers.length, memberIndividuals: m.length, nonMemberIndividuals: n.length },
  };
}

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
function normalQuantile(p: number): number {
  if (p === 0.975) return Z95;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) => (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/**
 * Offline LiRA (Carlini et al. 2022, "Membership Inference Attacks From First Principles"): per example,
 * how far the target's confidence lies above the confidences of reference models that did not train on
 * it, in standard deviations of those confidences. `references[i]` holds example i's out-model
 * confidences. With fewer than 32 references the variance is pooled over examples (the paper's fix for
 * few shadow models); the ranking equals that of the one-sided Gaussian likelihood test.
 */
export function liraScores(target: readonly number[], references: readonly (readonly number[])[]): number[] {
  if (references.length !== target.length) throw new RangeError('LiRA needs reference confidences for every example');
  const stats = references.map((rs) => {
    if (rs.length < 2) throw new RangeError('LiRA needs at least 2 reference models that did not train on each example');
    const mu = rs.reduce((a, b) => a + b, 0) / rs.length;
    return { mu, variance: rs.reduce((a, r) => a + (r - mu) ** 2, 0) / (rs.length - 1), r: rs.length };
  });
  const pooled = stats.reduce((a, s) => a + s.variance, 0) / Math.max(1, stats.length);
  return target.map((phi, i) => {
    const { mu, variance, r } = stats[i]!;
    const sd = Math.sqrt(r >= 32 ? variance : pooled) || 1e-12;
    return (phi - mu) / sd;
  });
}

/** Macro and micro F1 of predicted vs gold class labels. */
export function f1Scores(gold: readonly string[], predicted: readonly string[]): { macro: number; micro: number; perClass: Record<string, { precision: number; recall: number; f1: number; support: number }> } {
  const classes = [...new Set(gold)].sort();
  const perClass: Record<string, { precision: number; recall: number; f1: number; support: number }> = {};
  let correct = 0;
  for (let i = 0; i < gold.length; i++) if (gold[i] === predicted[i]) correct++;
  for (const c of classes) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < gold.length; i++) {
      if (predicted[i] === c && gold[i] === c) tp++;
      else if (predicted[i] === c) fp++;
      else if (gold[i] === c) fn++;
    }
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
    perClass[c] = { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), support: tp + fn };
  }
  const macro = classes.reduce((a, c) => a + perClass[c]!.f1, 0) / Math.max(1, classes.length);
  return { macro, micro: gold.length === 0 ? 0 : correct / gold.length, perClass };
}
