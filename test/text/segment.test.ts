import { describe, expect, it } from 'vitest';
import { contentWords, normalizeTerm, segmentWords, wordNgrams } from '../../src/text/index.js';

describe('segmentWords', () => {
  it('keeps apostrophes and hyphens inside words and marks numbers', () => {
    expect(segmentWords("O'Brien's COVID-19 test, 2019 results.").map((w) => [w.surface, w.kind])).toEqual([
      ["O'Brien's", 'word'],
      ['COVID-19', 'word'],
      ['test', 'word'],
      ['2019', 'number'],
      ['results', 'word'],
    ]);
  });

  it('gives offsets into the original text', () => {
    const text = '  Müller\tsaw 東京タワー';
    for (const w of segmentWords(text)) expect(text.slice(w.start, w.end)).toBe(w.surface);
    expect(segmentWords(text).map((w) => w.surface)).toContain('Müller');
  });

  it('segments scripts without spaces with ICU', () => {
    expect(segmentWords('我爱北京').length).toBeGreaterThan(1);
  });
});

describe('normalizeTerm', () => {
  it('applies NFKC and case folding', () => {
    expect(normalizeTerm('ＡＢＣ①')).toBe('abc1');
    expect(normalizeTerm('Straße')).toBe('straße');
  });
});

describe('wordNgrams', () => {
  it('yields 1..3-grams with spans and skips number-only n-grams', async () => {
    const words = await contentWords('Alice met 42 Bob');
    const grams = [...wordNgrams(words, { min: 1, max: 2 })].map((g) => g.term);
    expect(grams).toEqual(['alice', 'alice met', 'met', 'met 42', '42 bob', 'bob']);
    expect([...wordNgrams(words, { min: 2, max: 3, ignoreNumbers: false })].map((g) => g.term)).toContain('alice met 42');
  });
});
