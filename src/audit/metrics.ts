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
  let auc = 0;
  for (let i = 0; i < all.length; ) {
    let dtp = 0;
    let dfp = 0;
    const s = all[i]![0];
    while (i < all.length && all[i]![0] === s) {
      if (all[i]![1] === 1) dtp++;
      else dfp++;
      i++;
    }
    auc += (dfp / N) * ((tp + dtp / 2) / P);
    tp += dtp;
    fp += dfp;
    curve.push([fp / N, tp / P]);
  }
  const tprAt = (maxFpr: number) => curve.filter(([f]) => f <= maxFpr + 1e-12).reduce((best, [, t]) => Math.max(best, t), 0);
  return { auc, tprAt1: tprAt(0.01), tprAt01: tprAt(0.001), curve };
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

/** A scored unit of membership inference (document or individual) and the individual it belongs to. */
export interface ScoredUnit {
  individual: string;
  score: number;
}

/** A ROC analysis with percentile intervals from a bootstrap over individuals. */
export interface RocWithInterval extends RocResult {
  ci: { auc: [number, number]; tprAt1: [number, number]; tprAt01: [number, number] };
}

/**
 * {@link roc} with intervals from a stratified bootstrap over individuals: member and non-member
 * individuals are resampled with replacement, each bringing all of its units (documents), so documents of
 * one person never count as independent evidence.
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
  return { ...result, ci: { auc: percentileInterval(auc, level), tprAt1: percentileInterval(tprAt1, level), tprAt01: percentileInterval(tprAt01, level) } };
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
