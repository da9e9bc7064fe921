import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/engine/index.js';
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

  it('splits at a quotation mark or a hyphen beside Hangul, which has no apostrophe inside a word', () => {
    expect(segmentWords("‘안철수’가 관심을'하정우 김새롬-이찬오 한-미 K-팝 e-스포츠 O'Neil").map((w) => w.surface)).toEqual(['안철수', '가', '관심을', '하정우', '김새롬', '이찬오', '한', '미', 'K', '팝', 'e', '스포츠', "O'Neil"]);
    // Digits keep their hyphen, and Hangul written against them stays in their word; a hyphen after Hangul
    // separates, so 123-456 after one is a number of its own.
    expect(segmentWords('2020-12월 12월-1월 국민-123-456').map((w) => [w.surface, w.kind])).toEqual([['2020-12월', 'word'], ['12월', 'word'], ['1월', 'word'], ['국민', 'word'], ['123-456', 'number']]);
  });

  it('gives offsets into the original text', () => {
    const text = '  Müller\tsaw 東京タワー';
    for (const w of segmentWords(text)) expect(text.slice(w.start, w.end)).toBe(w.surface);
    expect(segmentWords(text).map((w) => w.surface)).toContain('Müller');
  });

  it('finds exactly the words of the defining regex on random mixed-script text (property)', () => {
    // The definition the scanner implements, kept here as the oracle.
    const WORD = /[\p{L}\p{M}\p{N}]+(?:(?<![가-힣])['’-](?![가-힣])[\p{L}\p{M}\p{N}]+)*/gu;
    const reference = (text: string) => [...text.matchAll(WORD)].map((m) => [m.index, m[0], /^\p{Nd}+(?:-\p{Nd}+)*$/u.test(m[0]) ? 'number' : 'word']);
    const alphabet = [...'aZé9٣-\'’ .,\t\n한글0ﬁ\u0301\ud835\udc00\ud800x_—«', '\u{1F600}', '\u{1D7D8}'];
    const rng = new Rng(7);
    for (let trial = 0; trial < 2000; trial++) {
      const text = Array.from({ length: 1 + Math.floor(rng.next() * 20) }, () => alphabet[Math.floor(rng.next() * alphabet.length)]!).join('');
      expect(segmentWords(text).map((w) => [w.start, w.surface, w.kind]), JSON.stringify(text)).toEqual(reference(text));
    }
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
