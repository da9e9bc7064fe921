import { describe, expect, it } from 'vitest';
import { resultsCsv, resultsMarkdown, resultsSvg, type ResultRow } from '../../src/experiment/results.js';

const row = (strategy: string, epochs: number, privacyAll: number): ResultRow => ({
  strategy, epochs, seed: 1, privacyAll, privacyDirect: 1, privacyIndirect: 1, privacyCanary: NaN, canaryExposure: NaN, miaAuc: 0.5, miaTpr1: 0.01,
  calibratedAuc: 0.5, calibratedTpr1: 0.01, utility: 0.2, utilityBase: 0.2, utilityBaseline: 0.1, epsilon: NaN, epsilonUnit: '',
});

describe('experiment results', () => {
  const rows = [row('base', 0, 0.99), row('standard', 4, 0.9), row('standard', 16, 0.8)];

  it('draws a strategy over the epoch counts it has, and the base model as one point', () => {
    const privacy = resultsSvg(rows).match(/<svg class="plot privacy"[\s\S]*?<\/svg>/)![0];
    const lines = [...privacy.matchAll(/<polyline [^>]*points="([^"]+)"/g)].map((m) => m[1]!.split(' ').length);
    expect(lines).toEqual([2]);
    expect(privacy.match(/<circle /g)).toHaveLength(1);
  });

  it('leaves missing figures empty in CSV and Markdown', () => {
    const csv = resultsCsv(rows).trim().split('\n');
    expect(csv[1]).toBe('base,0,1,0.9900,1,1,,,0.5000,0.0100,0.5000,0.0100,0.2000,0.2000,0.1000,,');
    expect(resultsMarkdown(rows)).toMatch(/\| standard \| 16 \| 1 \| 0\.8000 \|/);
  });
});
