import { describe, expect, it } from 'vitest';
import { BlacklistMatcher, mergeSpans } from '../../src/identifiers/index.js';
import { RuleAnalyzer } from '../../src/text/index.js';

const spans = async (terms: string[], text: string, analyzer?: RuleAnalyzer) =>
  (await new BlacklistMatcher(terms.map((term) => ({ term }))).match(text, analyzer)).map((m) => [text.slice(m.start, m.end), terms[m.entry]]);

describe('BlacklistMatcher', () => {
  it('matches at word boundaries only', async () => {
    expect(await spans(['ann'], 'Ann, Anna and annual ANN.')).toEqual([
      ['Ann', 'ann'],
      ['ANN', 'ann'],
    ]);
  });

  it('reports overlapping and nested multi-word terms', async () => {
    const terms = ['alice smith', 'smith jones', 'smith', 'alice smith jones'];
    expect(await spans(terms, 'Dr. Alice Smith Jones called.')).toEqual([
      ['Alice Smith', 'alice smith'],
      ['Smith', 'smith'],
      ['Alice Smith Jones', 'alice smith jones'],
      ['Smith Jones', 'smith jones'],
    ]);
  });

  it('follows failure links (aab in aaab)', async () => {
    expect(await spans(['a a b', 'a b'], 'a a a b')).toEqual([
      ['a a b', 'a a b'],
      ['a b', 'a b'],
    ]);
  });

  it('normalises the text like the terms: case, full-width, whitespace and punctuation between words', async () => {
    expect(await spans(['john doe', '2019. 9. 5.'], 'JOHN\n  Doe on 2019. 9. 5. and Ｊｏｈｎ Doe')).toEqual([
      ['JOHN\n  Doe', 'john doe'],
      ['2019. 9. 5', '2019. 9. 5.'],
      ['Ｊｏｈｎ Doe', 'john doe'],
    ]);
  });

  it('finds Korean terms before particles but not inside other words', async () => {
    expect(await spans(['홍길동'], '홍길동이 왔고 홍길동을 봤다. 홍길동전은 소설이다.', new RuleAnalyzer())).toEqual([
      ['홍길동', '홍길동'],
      ['홍길동', '홍길동'],
    ]);
  });

  it('finds a one-word term written whole where the analyser cuts more than the particle (민예하 → 민예 + 하)', async () => {
    // An analyser that reads 하 as a verb-deriving suffix and 는/이 as particles, as mecab-ko-dic can.
    const analyzer = {
      name: 'stub',
      close: async () => {},
      analyze: async (text: string) =>
        [...text.matchAll(/[\uac00-\ud7a3]/g)].map((m) => ({ surface: m[0], tag: m[0] === '하' ? 'XSV' : m[0] === '는' || m[0] === '이' ? 'JX' : 'NNG', start: m.index!, end: m.index! + 1 })),
    };
    expect(await spans(['민예하', '민예'], '민예하는 왔고 민예하, 민예이', analyzer as unknown as RuleAnalyzer)).toEqual([
      ['민예하', '민예하'],
      ['민예', '민예'],
      ['민예하', '민예하'],
      ['민예', '민예'],
      ['민예', '민예'],
    ]);
  });

  it('finds every occurrence in a long text in linear time', async () => {
    const text = 'x '.repeat(100_000) + 'needle';
    const m = await new BlacklistMatcher([{ term: 'needle' }, { term: 'x x x x x y' }]).match(text);
    expect(m).toHaveLength(1);
  });
});

describe('mergeSpans', () => {
  it('merges overlapping and touching spans', () => {
    expect(mergeSpans([{ start: 5, end: 8 }, { start: 0, end: 3 }, { start: 2, end: 4 }, { start: 8, end: 9 }])).toEqual([
      [0, 4],
      [5, 9],
    ]);
  });
});
