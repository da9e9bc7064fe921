import { describe, expect, it } from 'vitest';
import { bootstrapMean, f1Scores, roc } from '../../src/audit/index.js';
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
