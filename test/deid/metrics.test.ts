import { describe, expect, it } from 'vitest';
import { tokenMetrics } from '../../src/deid/metrics.js';

describe('tokenMetrics', () => {
  it('computes binary and micro F1 on a hand-made case', () => {
    const gold = ['O', 'NAME', 'NAME', 'O', 'BANK', 'ACCOUNT', 'O'];
    const pred = ['O', 'NAME', 'BANK', 'NAME', 'BANK', 'O', 'O'];
    const m = tokenMetrics(gold, pred);
    // Binary: gold PII at 1,2,4,5; predicted PII at 1,2,3,4 → tp 3, fp 1, fn 1.
    expect(m.binary).toEqual({ precision: 0.75, recall: 0.75, f1: 0.75 });
    // Typed: correct at 1 and 4 → tp 2; predictions 2 (BANK), 3 (NAME) wrong → fp 2; gold 2, 5 missed → fn 2.
    expect(m.micro.precision).toBeCloseTo(0.5);
    expect(m.micro.recall).toBeCloseTo(0.5);
    expect(m.perLabel.NAME).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2 });
    expect(m.perLabel.ACCOUNT).toMatchObject({ recall: 0, support: 1 });
    expect(m.confusions).toContainEqual({ gold: 'NAME', predicted: 'BANK', count: 1 });
    expect(m.confusions).toContainEqual({ gold: 'O', predicted: 'NAME', count: 1 });
  });
});
