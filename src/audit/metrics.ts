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

/** Percentile bootstrap interval of the mean of 0/1 (or real) outcomes, seeded. */
export function bootstrapMean(values: readonly number[], rng: { int(n: number): number }, iterations = 1000, level = 0.95): [number, number] {
  if (values.length === 0) return [NaN, NaN];
  const means: number[] = [];
  for (let b = 0; b < iterations; b++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[rng.int(values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  const lo = means[Math.floor(((1 - level) / 2) * iterations)]!;
  const hi = means[Math.min(iterations - 1, Math.ceil(((1 + level) / 2) * iterations) - 1)]!;
  return [lo, hi];
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
