import { describe, expect, it, afterAll } from 'vitest';
import { contentWords, createKoreanAnalyzer, locateMecab, splitParticle, endsInConsonant, RuleAnalyzer, morphemeCursor, morphemesByStart, quantity, verbForm } from '../../src/text/index.js';

describe('splitParticle (rule analyser)', () => {
  it('splits particles that agree with the final consonant', () => {
    expect(splitParticle('홍길동이')).toEqual(['홍길동', '이']);
    expect(splitParticle('홍길동을')).toEqual(['홍길동', '을']);
    expect(splitParticle('김철수가')).toEqual(['김철수', '가']);
    expect(splitParticle('김철수는')).toEqual(['김철수', '는']);
    expect(splitParticle('법원에서')).toEqual(['법원', '에서']);
    expect(splitParticle('서울로')).toEqual(['서울', '로']);
    expect(splitParticle('부산으로')).toEqual(['부산', '으로']);
  });

  it('leaves nouns whose last syllable only looks like a particle', () => {
    expect(splitParticle('나이')).toEqual(['나이', '']);
    expect(splitParticle('포도')).toEqual(['포도', '']);
    expect(splitParticle('사과')).toEqual(['사과', '']);
  });

  it('reads digits as Sino-Korean for agreement', () => {
    expect(endsInConsonant('3')).toBe(true);
    expect(endsInConsonant('2')).toBe(false);
    expect(splitParticle('5678로')).toEqual(['5678', '로']);
  });
});

describe('contentWords', () => {
  it('gives the same term for 홍길동이 and 홍길동을 with the rule analyser', async () => {
    const words = await contentWords('홍길동이 왔다. 홍길동을 만났다.', new RuleAnalyzer());
    expect(words.filter((w) => w.norm === '홍길동').map((w) => [w.start, w.end])).toEqual([
      [0, 3],
      [9, 12],
    ]);
  });

  it('normalises full-width and case for non-Korean words and never calls the analyser without Hangul', async () => {
    const calls: string[] = [];
    const spy = { name: 'spy', analyze: async (t: string) => (calls.push(t), []), close: async () => undefined };
    const words = await contentWords('Ｊｏｈｎ met O’Brien', spy);
    expect(words.map((w) => w.norm)).toEqual(['john', 'met', 'o’brien']);
    expect(calls).toEqual([]);
  });
});

const mecab = locateMecab();
describe.runIf(!('missing' in mecab))('mecab analyser', () => {
  const analyzer = createKoreanAnalyzer('mecab');
  afterAll(() => analyzer.close());

  it('analyses 아버지가 방에 들어가신다 as mecab-ko does', async () => {
    const morphs = await analyzer.analyze('아버지가 방에 들어가신다');
    expect(morphs.slice(0, 4).map((m) => `${m.surface}/${m.tag}`)).toEqual(['아버지/NNG', '가/JKS', '방/NNG', '에/JKB']);
    expect(morphs[0]).toMatchObject({ start: 0, end: 3 });
  });

  it('splits particles off names and keeps offsets through one long-lived process', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `피고인 홍길동${i % 2 ? '이' : '을'} 서울중앙지방법원에서 판결을 받았다.`);
    const all = await Promise.all(texts.map((t) => contentWords(t, analyzer)));
    for (const words of all) expect(words.map((w) => w.surface).slice(0, 3)).toEqual(['피고인', '홍길동', '서울중앙지방법원']);
  });

  it('passes text through stdin untouched by any shell', async () => {
    const words = await contentWords('$(rm -rf /) `id` 홍길동이', analyzer);
    expect(words.at(-1)?.surface).toBe('홍길동');
  });
});

describe('createKoreanAnalyzer', () => {
  it('falls back to the rule analyser and says so once when mecab is missing', () => {
    const saved = process.env.MECAB_LIB_PATH;
    process.env.MECAB_LIB_PATH = '/nonexistent';
    const said: string[] = [];
    try {
      expect(createKoreanAnalyzer('auto', (w) => said.push(w)).name).toBe('rule');
      expect(said).toEqual([expect.stringMatching(/rule analyser \(MECAB_LIB_PATH is set but \/nonexistent\/bin\/mecab is not an executable\)/)]);
      expect(() => createKoreanAnalyzer('mecab')).toThrow(/--analyzer mecab: MECAB_LIB_PATH/);
    } finally {
      if (saved === undefined) delete process.env.MECAB_LIB_PATH;
      else process.env.MECAB_LIB_PATH = saved;
    }
  });
});

describe('verbForm', () => {
  // Morphemes as mecab-ko-dic tags them, one span's.
  const word = (...pieces: [string, string][]) => {
    let at = 0;
    return pieces.map(([surface, tag]) => ({ surface, tag, start: at, end: (at += surface.length) }));
  };
  it('is a predicate and an ending last, particles and punctuation aside', () => {
    expect(verbForm(word(['송금', 'NNG'], ['받', 'VV'], ['아', 'EC']))).toBe(true);
    expect(verbForm(word(['운영', 'NNG'], ['하', 'XSV'], ['는', 'ETM']))).toBe(true);
    // So is a name mecab reads as one, the cost the rule pays: 박빈 as 박/MAG 빈/VV+ETM.
    expect(verbForm(word(['박', 'MAG'], ['빈', 'VV+ETM']))).toBe(true);
    expect(verbForm(word(['공모', 'NNG'], ['하', 'XSV'], ['여', 'EC'], ['도', 'JX']))).toBe(true);
    expect(verbForm(word(['송금', 'NNG'], ['하', 'XSV'], ['였', 'EP'], ['다', 'EF'], ['.', 'SF']))).toBe(true);
  });
  it('is no name mecab misreads as holding a predicate, nor a noun with its particle or copula', () => {
    expect(verbForm(word(['한', 'XSA+ETM'], ['은우', 'NNG']))).toBe(false);
    expect(verbForm(word(['홍길동', 'NNP'], ['에게', 'JKB']))).toBe(false);
    expect(verbForm(word(['홍길동', 'NNP'], ['이', 'VCP'], ['다', 'EF']))).toBe(false);
  });
});

describe('quantity', () => {
  const word = (...pieces: [string, string][]) => {
    let at = 0;
    return pieces.map(([surface, tag]) => ({ surface, tag, start: at, end: (at += surface.length) }));
  };
  it('is numbers and measures only, particles and punctuation aside', () => {
    expect(quantity(word(['27', 'SN'], ['일', 'NNBC']))).toBe(true);
    expect(quantity(word(['1', 'SN'], ['억', 'NR'], ['6500', 'SN']))).toBe(true);
    expect(quantity(word(['1', 'SN'], [',', 'SC'], ['000', 'SN'], ['만', 'NR'], ['원', 'NNBC'], ['을', 'JKO']))).toBe(true);
    expect(quantity(word(['4077', 'SN'], ['가구', 'NNG']))).toBe(true);
    expect(quantity(word(['30', 'SN'], ['%', 'SY']))).toBe(true);
    expect(quantity(word(['1400', 'SN'], ['여', 'XSN']))).toBe(true);
    expect(quantity(word(['30', 'SN'], ['kg', 'SL']))).toBe(true);
  });
  it('is no number that names a thing, no bare number and no word beside a number', () => {
    // A plate, a bus, a flat, an account: numbers that say whose.
    expect(quantity(word(['12', 'SN'], ['가', 'JKS'], ['3456', 'SN']))).toBe(false);
    // Plates whose syllable is also a measure: 조 (a trillion), 주 (a week), and a Latin unit inside an ID.
    expect(quantity(word(['12', 'SN'], ['조', 'NR'], ['3456', 'SN']))).toBe(false);
    expect(quantity(word(['34', 'SN'], ['주', 'NNBC'], ['5678', 'SN']))).toBe(false);
    expect(quantity(word(['12', 'SN'], ['m', 'SL'], ['3456', 'SN']))).toBe(false);
    expect(quantity(word(['402', 'SN'], ['번', 'NNBC']))).toBe(false);
    expect(quantity(word(['101', 'SN'], ['호', 'NNBC']))).toBe(false);
    expect(quantity(word(['2205', 'SN'], ['-', 'SY'], ['661', 'SN']))).toBe(false);
    expect(quantity(word(['5', 'SN'], ['번', 'NNBC'], ['출구', 'NNG']))).toBe(false);
    expect(quantity(word(['가구', 'NNG']))).toBe(false);
  });
});

describe('morphemeCursor', () => {
  it('gives the morphemes inside each span, spans asked in text order', () => {
    const analysis = [
      { surface: '김', tag: 'NNP', start: 0, end: 1 },
      { surface: '씨', tag: 'NNB', start: 1, end: 2 },
      { surface: '가', tag: 'JKS', start: 2, end: 3 },
      { surface: '왔다', tag: 'VV+EP+EF', start: 4, end: 6 },
    ];
    const inside = morphemeCursor(analysis);
    expect(inside(0, 2).map((m) => m.surface)).toEqual(['김', '씨']);
    expect(inside(2, 6).map((m) => m.surface)).toEqual(['가', '왔다']);
    expect(inside(6, 6)).toEqual([]);
  });

  it('indexes morphemes by start, the first of each, so a piece finds the one against it', () => {
    const byStart = morphemesByStart([
      { surface: '신주쿠', tag: 'NNP', start: 0, end: 3 },
      { surface: '구', tag: 'NNG', start: 3, end: 4 },
      { surface: '구', tag: 'NNB', start: 3, end: 4 },
      { surface: '에', tag: 'JKB', start: 4, end: 5 },
    ]);
    expect(byStart.get(3)?.tag).toBe('NNG');
    expect(byStart.get(byStart.get(3)!.end)?.surface).toBe('에');
    expect(byStart.get(5)).toBeUndefined();
  });
});
