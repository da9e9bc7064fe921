import { describe, expect, it } from 'vitest';
import { aucScoreInterval, bootstrapMean, clusterBootstrap, exposureDifference, f1Scores, liraScores, roc, rocWithInterval, wilsonInterval } from '../../src/audit/index.js';
import { Rng } from '../../src/engine/index.js';
import { FormatError } from '../../src/errors.js';

describe('roc', () => {
  it('computes AUC as the probability that a member outscores a non-member (ties half)', () => {
    // Pairs (m, n): 3>0.5, 3>2.5, 2>0.5, 2<2.5, 1>0.5, 1<2.5 → 4 of 6.
    expect(roc([3, 2, 1], [0.5, 2.5]).auc).toBeCloseTo(4 / 6, 12);
    expect(roc([1, 1], [1, 1]).auc).toBeCloseTo(0.5, 12);
    expect(roc([2, 3], [0, 1]).auc).toBe(1);
  });

  it('reports TPR at the largest threshold whose FPR stays within 1% and 0.1%', () => {
    const members = Array.from({ length: 100 }, (_, i) => i + 0.5);
    const nonMembers = Array.from({ length: 200 }, (_, i) => i / 2);
    // Descending: 99.5 (a member and a non-member tie) → FPR 0.005, TPR 0.01; 99 (non-member) → FPR 0.01;
    // 98.5 (tie again) → FPR 0.015, past 1%. No threshold has FPR <= 0.1% except the empty one.
    const r = roc(members, nonMembers);
    expect(r.tprAt01).toBe(0);
    expect(r.tprAt1).toBeCloseTo(0.01, 12);
    expect(r.curve[0]).toEqual([0, 0]);
    expect(r.curve.at(-1)).toEqual([1, 1]);
  });

  it('rejects empty groups', () => {
    expect(() => roc([], [1])).toThrow(/at least one member and one non-member/);
  });

  it('refuses a NaN score, naming what produced it, instead of looping forever; infinite scores sort', () => {
    expect(() => roc([1, NaN], [0], 'the loss attack')).toThrow(FormatError);
    expect(() => roc([1], [0, 2, NaN], 'the loss attack')).toThrow(/^the loss attack \(non-members\): value 3 of 3 is NaN/);
    expect(roc([Infinity, 1], [-Infinity, 0]).auc).toBe(1);
  });
});

describe('bootstrapMean', () => {
  it('brackets the mean and is deterministic for a seed', () => {
    const xs = Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const [lo, hi] = bootstrapMean(xs, new Rng(1));
    expect(lo).toBeLessThan(0.25);
    expect(hi).toBeGreaterThan(0.25);
    expect(hi - lo).toBeLessThan(0.1);
    expect(bootstrapMean(xs, new Rng(1))).toEqual([lo, hi]);
  });
});

describe('f1Scores', () => {
  it('computes macro and micro F1 on a hand-made case', () => {
    const r = f1Scores(['a', 'a', 'b', 'b'], ['a', 'b', 'b', 'b']);
    // a: P 1, R 0.5, F1 2/3; b: P 2/3, R 1, F1 0.8.
    expect(r.perClass.a!.f1).toBeCloseTo(2 / 3);
    expect(r.perClass.b!.f1).toBeCloseTo(0.8);
    expect(r.macro).toBeCloseTo((2 / 3 + 0.8) / 2);
    expect(r.micro).toBeCloseTo(0.75);
  });
});

describe('clusterBootstrap', () => {
  it('resamples individuals, not outcomes: a hand-computed case', () => {
    // Individual A: 1 of 1 occurrence recovered; B: 0 of 3. Resampling two individuals gives AA (p 1/4,
    // ratio 1), BB (1/4, ratio 0) or AB (1/2, ratio 1/4): the 95% percentile interval is [0, 1].
    const clusters = [{ num: 1, den: 1 }, { num: 0, den: 3 }];
    expect(clusterBootstrap(clusters, new Rng(3))).toEqual([0, 1]);
    // The same four outcomes resampled one by one (the old bootstrap) exclude both ends.
    const [lo, hi] = bootstrapMean([1, 0, 0, 0], new Rng(3));
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    // One individual: every resample is that individual, however many occurrences it has.
    expect(clusterBootstrap([{ num: 3, den: 12 }], new Rng(1))).toEqual([0.25, 0.25]);
    expect(clusterBootstrap([], new Rng(1))).toEqual([NaN, NaN]);
  });
});

describe('rocWithInterval', () => {
  it('resamples individuals with all their documents, members and non-members apart', () => {
    // Perfect separation: every resample keeps AUC 1, so the bootstrap alone would claim [1, 1]; the
    // score interval keeps the lower bound where 3 against 2 documents put it.
    const m = [{ individual: 'a', score: 3 }, { individual: 'a', score: 4 }, { individual: 'b', score: 5 }];
    const n = [{ individual: 'c', score: 1 }, { individual: 'd', score: 2 }];
    const r = rocWithInterval(m, n, new Rng(1), 'test');
    expect(r.auc).toBe(1);
    expect(r.ci.auc[1]).toBe(1);
    expect(r.ci.auc[0]).toBeCloseTo(aucScoreInterval(1, 3, 2)[0], 12);
    expect(r.ci.auc[0]).toBeLessThan(0.8);
    expect(r.n).toEqual({ members: 3, nonMembers: 2, memberIndividuals: 2, nonMemberIndividuals: 2 });
    // One member individual above, one below every non-member: AUC 1/2, and resamples of 2 individuals give 0, 1/2 or 1.
    const mixed = rocWithInterval([{ individual: 'a', score: 9 }, { individual: 'b', score: 0 }], [{ individual: 'c', score: 5 }], new Rng(2), 'test', 400);
    expect(mixed.auc).toBe(0.5);
    expect(mixed.ci.auc).toEqual([0, 1]);
  });
});

describe('liraScores', () => {
  it('standardises the target confidence by the out-models\' mean and pooled deviation', () => {
    // Two examples, references [1, 3] (variance 2) and [0, 2] (variance 2): pooled sd sqrt 2.
    expect(liraScores([4, 1], [[1, 3], [0, 2]])).toEqual([(4 - 2) / Math.SQRT2, 0]);
    expect(() => liraScores([1], [[1]])).toThrow(/at least 2 reference models/);
  });

  it('beats the loss attack on a synthetic Gaussian case where examples differ in difficulty', () => {
    const rng = new Rng(11);
    // Each example has its own difficulty d (the loss attack's confound); membership adds 1 to the
    // confidence; reference models (out) see d plus noise of sd 0.5, as does a non-member target.
    const examples = Array.from({ length: 400 }, (_, i) => ({ member: i < 200, d: 4 * rng.normal() }));
    const target = examples.map((e) => e.d + (e.member ? 1 : 0) + 0.5 * rng.normal());
    const refs = examples.map((e) => Array.from({ length: 8 }, () => e.d + 0.5 * rng.normal()));
    const lira = liraScores(target, refs);
    const split = (xs: number[]) => [xs.filter((_, i) => examples[i]!.member), xs.filter((_, i) => !examples[i]!.member)] as const;
    const lossAuc = roc(...split(target)).auc;
    const liraRoc = roc(...split(lira));
    // Theory: loss AUC = Φ(1 / sqrt(2 (16 + 0.25))) ≈ 0.57; LiRA ≈ Φ(1 / sqrt(2 · 0.25 · (1 + 1/8))) ≈ 0.93.
    expect(lossAuc).toBeLessThan(0.65);
    expect(liraRoc.auc).toBeGreaterThan(0.88);
    expect(liraRoc.tprAt1).toBeGreaterThan(0.2);
  });
});

describe('exposureDifference', () => {
  it('is planted minus control mean exposure, its standard error the two standard errors of the means combined', () => {
    // planted: mean 3, sample variance 1 over 3 → SE 1/√3; control: mean 1, sample variance 2 over 2 → SE 1.
    const d = exposureDifference([2, 3, 4], [0, 2]);
    expect(d.planted).toEqual({ mean: 3, se: Math.sqrt(1 / 3), n: 3, clusters: 3, unscored: 0 });
    expect(d.control).toEqual({ mean: 1, se: 1, n: 2, clusters: 2, unscored: 0 });
    expect(d.difference.value).toBe(2);
    expect(d.difference.se).toBeCloseTo(Math.sqrt(1 / 3 + 1), 12);
  });
});

describe('exposureDifference with clusters', () => {
  it('treats secrets of one cluster as one unit of evidence, and leaves unscored secrets out', () => {
    // Two clusters of two identical secrets: as informative as two secrets, not four.
    const clustered = exposureDifference(
      [{ exposure: 2, cluster: 'a' }, { exposure: 2, cluster: 'a' }, { exposure: 4, cluster: 'b' }, { exposure: 4, cluster: 'b' }, { exposure: NaN, cluster: 'b' }],
      [0, 2],
    );
    const pairs = exposureDifference([2, 4], [0, 2]);
    expect(clustered.planted).toMatchObject({ mean: 3, n: 4, clusters: 2, unscored: 1 });
    expect(clustered.planted.se).toBeCloseTo(pairs.planted.se, 12);
    // Independent secrets with the same values would claim a smaller error.
    expect(exposureDifference([2, 2, 4, 4], [0, 2]).planted.se).toBeLessThan(clustered.planted.se);
  });
});

describe('intervals that stay honest at the boundary', () => {
  it('gives 0 of 21 an upper bound near 15%, not 0 (Wilson)', () => {
    const [lo, hi] = wilsonInterval(0, 21);
    expect(lo).toBe(0);
    expect(hi).toBeGreaterThan(0.13);
    expect(hi).toBeLessThan(0.16);
    // Symmetric, and inside [0, 1].
    const [a, b] = wilsonInterval(21, 21);
    expect(b).toBe(1);
    expect(a).toBeCloseTo(1 - hi, 12);
  });

  it('gives a perfect separation of 7 members from 20 non-members an AUC lower bound below 1', () => {
    const members = Array.from({ length: 7 }, (_, i) => ({ individual: `m${i}`, score: 10 + i }));
    const nonMembers = Array.from({ length: 20 }, (_, i) => ({ individual: `n${i}`, score: i / 10 }));
    const r = rocWithInterval(members, nonMembers, new Rng(1), 'test scores');
    expect(r.auc).toBeCloseTo(1, 12);
    expect(r.ci.auc[1]).toBe(1);
    expect(r.ci.auc[0]).toBeLessThan(0.95);
    expect(r.ci.auc[0]).toBeGreaterThan(0.6);
    // TPR at 1% FPR is 7 of 7: its lower bound is Wilson's, below 1.
    expect(r.tprAt1).toBe(1);
    expect(r.ci.tprAt1[0]).toBeLessThan(0.7);
    expect(r.n).toEqual({ members: 7, nonMembers: 20, memberIndividuals: 7, nonMemberIndividuals: 20 });
  });

  it('contains its estimate, and widens with fewer units', () => {
    // Any estimate lies inside its own interval, the boundaries included.
    for (const auc of [0, 0.1, 0.5, 0.83, 1]) {
      const [lo, hi] = aucScoreInterval(auc, 12, 30);
      expect(lo).toBeLessThanOrEqual(auc);
      expect(hi).toBeGreaterThanOrEqual(auc);
      expect(hi - lo).toBeGreaterThan(0.05);
    }
    // Wider with fewer units.
    const narrow = aucScoreInterval(0.8, 100, 100);
    const wide = aucScoreInterval(0.8, 10, 10);
    expect(wide[1] - wide[0]).toBeGreaterThan(narrow[1] - narrow[0]);
  });
});
