import { afterAll, describe, expect, it } from 'vitest';
import { BlacklistMatcher, mergeSpans } from '../../src/identifiers/index.js';
import { RuleAnalyzer, createKoreanAnalyzer, endsInConsonant, locateMecab, type MorphAnalyzer } from '../../src/text/index.js';

const spans = async (terms: string[], text: string, analyzer?: MorphAnalyzer) =>
  (await new BlacklistMatcher(terms.map((term) => ({ term }))).match(text, analyzer)).map((m) => [text.slice(m.start, m.end), terms[m.entry]]);

describe('BlacklistMatcher', () => {
  it('matches at word boundaries only', async () => {
    expect(await spans(['ann'], 'Ann, Anna and annual ANN.')).toEqual([
      ['Ann', 'ann'],
      ['ANN', 'ann'],
    ]);
  });

  it('reads a word with its English possessive as the word, and protects it whole', async () => {
    expect(await spans(['london', 'st. mary'], "London's mayor, St. Mary’s ward, londons")).toEqual([
      ["London's", 'london'],
      ['St. Mary’s', 'st. mary'],
    ]);
    // A term written with a possessive is the same term (canonicalTerm drops it): one person, one term.
    const { canonicalTerm } = await import('../../src/identifiers/blacklist/read.js');
    expect(canonicalTerm("Quigley's")).toBe('quigley');
    expect(canonicalTerm("o's")).toBe("o's");
    expect(canonicalTerm("Quigley’s wife Rose")).toBe('quigley wife rose');
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

  it('finds a term that starts inside a longer partial match (aab in aaab)', async () => {
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

  it('finds a multi-word term whose words the analyser cut, with a particle on the last word (민예하 서시은이)', async () => {
    // As mecab-ko-dic reads them: 민예 + 하(XSV), 서(EC) + 시은 + 이(JKS), 수서 + 도의 (one noun: no boundary at the name's end).
    const tags: Record<string, string> = { 민예: 'NNG', 하: 'XSV', 서: 'EC', 시은: 'NNG', 이: 'JKS', 수서: 'NNG', 도의: 'NNG' };
    const analyzer = {
      name: 'stub',
      close: async () => {},
      analyze: async (text: string) => [...text.matchAll(/민예|하|서|시은|이|수서|도의/g)].map((m) => ({ surface: m[0], tag: tags[m[0]]!, start: m.index!, end: m.index! + m[0].length })),
    };
    expect(await spans(['민예하 서시은', '서시은 수서도'], '민예하 서시은이 서시은 수서도의', analyzer as unknown as MorphAnalyzer)).toEqual([
      ['민예하 서시은', '민예하 서시은'],
      ['서시은 수서도', '서시은 수서도'],
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

/** Every pair of the four canary names mecab cut in the judgments experiment, alone and as two-word terms, before each particle that agrees with it. */
const NAMES = ['민예하', '수채지', '서시은', '수서도'];
const TERMS = [...NAMES, ...NAMES.flatMap((a) => NAMES.filter((b) => b !== a).map((b) => `${a} ${b}`))];
const PARTICLES = (word: string) => ['', ...(endsInConsonant(word) ? ['이', '은', '을', '과'] : ['가', '는', '를', '와']), '의', '에게', '도', '하고', '에서'];

async function missed(analyzer: MorphAnalyzer): Promise<string[]> {
  const matcher = new BlacklistMatcher(TERMS.map((term) => ({ term })));
  const out: string[] = [];
  for (const term of TERMS) {
    for (const particle of PARTICLES(term)) {
      const text = `비상연락처 ${term}${particle}, 참조번호 12345678.`;
      const found = (await matcher.match(text, analyzer)).filter((m) => TERMS[m.entry] === term);
      if (!found.some((m) => text.slice(m.start, m.end) === term)) out.push(text);
    }
  }
  return out;
}

describe('the Korean canary names, alone and in two-word terms, with every agreeing particle', () => {
  it('are all found with the rule analyser', async () => {
    expect(await missed(new RuleAnalyzer())).toEqual([]);
  });

  const mecab = locateMecab();
  const analyzer = 'missing' in mecab ? undefined : createKoreanAnalyzer('mecab');
  afterAll(() => analyzer?.close());
  it.skipIf(analyzer === undefined)(`are all found with mecab${'missing' in mecab ? ` (skipped: ${mecab.missing})` : ''}`, async () => {
    expect(await missed(analyzer!)).toEqual([]);
  });
});
